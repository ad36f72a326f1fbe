// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_check_dpdk.c - "nicnuma check --dpdk": is a running DPDK application's
 * mempool (and polling lcores) on its port's node? Options only: the
 * telemetry exchange, the verdict and the report's printing are
 * nicnuma/telemetry/dpdk_*.c's, the process's threads and memory per node
 * nicnuma/discover/procmap_read.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "nicnuma/core/cpuset.h"
#include "nicnuma/telemetry/dpdk_telemetry.h"

enum { OPT_DPDK = NN_OPT_OWN, OPT_PREFIX, OPT_SOCKET, OPT_TIMEOUT, OPT_VDEV_NODE };

static const struct nn_opt opts[] = {
	{ "dpdk", 0, NN_ARG_NONE, NULL, "check a DPDK process (required)", OPT_DPDK },
	{ "file-prefix", 0, NN_ARG_REQUIRED, "P", "the EAL --file-prefix of the process (default rte): socket "
	  "/var/run/dpdk/P/dpdk_telemetry.v2 (root)", OPT_PREFIX },
	{ "socket", 0, NN_ARG_REQUIRED, "PATH", "the telemetry v2 socket itself", OPT_SOCKET },
	{ "timeout", 0, NN_ARG_REQUIRED, "SECONDS", "deadline of the whole exchange, connect to last reply "
	  "(default 10; decimals allowed, 0.1 to 3600)", OPT_TIMEOUT },
	{ "vdev-node", 0, NN_ARG_REQUIRED, "N", "treat vdev ports as on node N (a vdev standing in for a NIC whose node "
	  "you know); default: unknown locality", OPT_VDEV_NODE },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_check_dpdk = {
	.name = "check --dpdk",
	.usage = "nicnuma [--json] check --dpdk [--file-prefix P | --socket PATH]\n"
		 "                                [--timeout SECONDS] [--vdev-node N]",
	.intro =
"Ask a running DPDK application, through its telemetry v2 socket, for its\n"
"ports (numa_node, queues), mempools (socket) and lcores, and say per port\n"
"whether its mempool and polling lcores are on its node. The port's node is\n"
"its PCI device's numa_node from sysfs; a vdev has none (unknown locality).\n"
"Lcores come from /eal/lcore/info (DPDK 23.11+) or else from the EAL\n"
"arguments (/eal/params: -l, -c, --lcores, --main-lcore); their nodes from\n"
"the node cpulists. The process's threads and hugepage memory per node\n"
"(/proc, as check --pid) are shown alongside.\n"
"\n"
"Telemetry does not say which mempool serves which port, so every populated\n"
"pool of the process is judged against every port. Verdicts per port:\n"
"  ok                          the pools are all on the port's node, and a\n"
"                              polling lcore is there\n"
"  mempool remote to its port  no pool on the port's node             [flagged]\n"
"  mempool of this port unknown\n"
"                              pools on the port's node and on others\n"
"                              (testpmd --port-numa-config): which one the\n"
"                              port uses cannot be told               [flagged]\n"
"  lcore remote                no polling lcore on the port's node    [flagged]\n"
"  unknown locality            the port's node is unknown (a vdev, numa_node -1)\n"
"Polling lcores: role RTE, except the main lcore when there are others.\n"
"What the telemetry of this release lacks is listed under 'missing'.\n",
	.opts = opts,
	.outro =
"--json: {\"dpdk\":{\"socket\",\"version\",\"pid\",\"skipped\",\"ports\":[{\"port_id\",\"name\",\"pci\",\n"
"\"driver\",\"numa_node\",\"node_source\",\"telemetry_numa_node\",\"sysfs_numa_node\",\n"
"\"rx_queues\",\"tx_queues\",\"mempool_nodes\",\"lcore_nodes\",\"verdicts\",\"flagged\"}],\n"
"\"mempools\":[{\"name\",\"socket\",\"size\",\"populated\",\"in_use\"}],\"lcore_source\",\n"
"\"main_lcore\",\"lcores\":[{\"lcore_id\",\"cpus\",\"node\",\"role\",\"main\",\"polling\"}],\n"
"\"process\":{..},\"missing\":[{\"what\",\"effect\"}],\"flagged_count\"},\"warnings\":[..]}.\n"
"Unknown values are null.\n"
"\n"
"The socket must be a socket itself (a symbolic link is not followed), owned\n"
"by root or by the process serving it; that process (SO_PEERCRED) must be the\n"
"pid its greeting names. Otherwise it is skipped with a warning. At most 1024\n"
"ports, mempools and lcores are asked (a longer list is cut, with a warning).\n"
"\n"
"Exit status: 0 nothing flagged, 1 a misplacement (or warnings, or skipped),\n"
"2 error (no socket, stale socket, garbage replies, past the deadline).\n",
};

static int parse_opts(struct nn_ctx *ctx, int argc, char **argv, struct nn_dt_opts *o)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	const char *arg;
	long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = NN_DT_TIMEOUT_MS;
	o->vdev_node = -1;
	while ((c = nn_opt_next(ctx, &nn_desc_check_dpdk, &st)) > 0) {
		arg = st.arg;
		switch (c) {
		case OPT_DPDK:
			break;
		case OPT_PREFIX:
			if (!*arg || strchr(arg, '/') || !strcmp(arg, ".") ||
			    !strcmp(arg, "..")) {
				nn_err(ctx, "--file-prefix: '%s' is not a file prefix", arg);
				return -EINVAL;
			}
			o->prefix = arg;
			break;
		case OPT_SOCKET:
			o->socket = arg;
			break;
		case OPT_TIMEOUT: {
			double sec;

			if (nn_opt_seconds(ctx, "--timeout", arg, 0.1, 3600, &sec))
				return -EINVAL;
			o->timeout_ms = (int)(sec * 1000 + 0.5);
			break;
		}
		case OPT_VDEV_NODE:
			if (nn_parse_long(arg, &v) || v < 0 || v >= NN_CPU_MAX) {
				nn_err(ctx, "--vdev-node: '%s' is not a node number", arg);
				return -EINVAL;
			}
			o->vdev_node = (int)v;
			break;
		}
	}
	if (c < 0)
		return c == NN_OPT_HELP ? 1 : -EINVAL;
	if (o->socket && o->prefix) {
		nn_err(ctx, "check --dpdk: give --file-prefix or --socket, not both");
		return -EINVAL;
	}
	return 0;
}

int cmd_check_dpdk(struct nn_ctx *ctx, int argc, char **argv)
{
	struct nn_dt_report r;
	struct nn_dt_opts o;
	int err;

	err = parse_opts(ctx, argc, argv, &o);
	if (err)
		return err > 0 ? NN_EXIT_OK : NN_EXIT_ERROR;
	err = nn_dt_check(ctx, &o, &r);
	if (err) {
		if (err == -ENOMEM)
			nn_err(ctx, "check --dpdk: %s", strerror(ENOMEM));
		nn_dt_report_free(&r);
		return NN_EXIT_ERROR;
	}
	nn_open_object(&ctx->out, NULL);
	nn_dt_report_print(&ctx->out, &r);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	err = r.nflagged || ctx->nwarns ? NN_EXIT_WARN : NN_EXIT_OK;
	nn_dt_report_free(&r);
	return err;
}
