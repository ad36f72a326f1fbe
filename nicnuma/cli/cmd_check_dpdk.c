// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_check_dpdk.c - "nicnuma check --dpdk": is a running DPDK application's
 * mempool (and polling lcores) on its port's node? Options and output only:
 * the telemetry exchange and the verdict are nicnuma/dpdk_*.c's, the process's
 * threads and memory per node nicnuma/discover/procmap_read.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opts.h"
#include "nicnuma/core/cpuset.h"
#include "nicnuma/discover/dpdk_telemetry.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/discover/procmap.h"

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

static void print_verdicts(struct nn_out *o, unsigned int v)
{
	bool first = true;

	nn_open_array(o, "verdicts");
	for (unsigned int f = 1; f <= NN_DTV_LAST; f <<= 1) {
		if (!(v & f))
			continue;
		nn_print_string(o, PRINT_JSON, NULL, NULL, nn_dt_verdict_key(f));
		nn_printf(o, "%s%s%s", first ? "" : ", ", nn_dt_verdict_text(f),
			  (f & NN_DTV_FLAGGED) ? " [flagged]" : "");
		first = false;
	}
	nn_close_array(o);
}

static const char *str_or_null(const char *s)
{
	return s && *s ? s : NULL;
}

static void print_ports(struct nn_out *o, const struct nn_dt_report *r)
{
	nn_printf(o, "ports:\n  %-4s %-16s %-5s %-12s %-9s %-9s %-7s %s\n", "port", "name", "node",
		  "source", "pools on", "lcores on", "rxq/txq", "verdict");
	nn_open_array(o, "ports");
	for (size_t i = 0; i < r->nports; i++) {
		const struct nn_dt_port *p = &r->ports[i];
		char *pn = nn_cpuset_format_list(&p->pool_nodes);
		char *ln = nn_cpuset_format_list(&p->lcore_nodes);

		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_ANY, "port_id", "  %-4lld", p->port_id);
		nn_print_string(o, PRINT_ANY, "name", " %-16s", p->name);
		nn_print_string(o, PRINT_JSON, "pci", NULL, str_or_null(p->pci));
		nn_print_string(o, PRINT_JSON, "driver", NULL, str_or_null(p->driver));
		nn_print_opt_int(o, PRINT_ANY, "numa_node", " %-5lld", p->node, "-");
		nn_print_string(o, PRINT_ANY, "node_source", " %-12s",
				p->node_source ? p->node_source : p->pci[0] ? "sysfs: -1" : "vdev");
		nn_print_opt_int(o, PRINT_JSON, "telemetry_numa_node", NULL, p->tel_node, NULL);
		nn_print_opt_int(o, PRINT_JSON, "sysfs_numa_node", NULL, p->sysfs_node, NULL);
		nn_print_opt_int(o, PRINT_JSON, "rx_queues", NULL, p->rx_queues, NULL);
		nn_print_opt_int(o, PRINT_JSON, "tx_queues", NULL, p->tx_queues, NULL);
		nn_print_cpuset(o, PRINT_JSON, "mempool_nodes", NULL, &p->pool_nodes);
		nn_print_cpuset(o, PRINT_JSON, "lcore_nodes", NULL, &p->lcore_nodes);
		nn_printf(o, " %-9s %-9s %d/%-5d ", pn && *pn ? pn : "-", ln && *ln ? ln : "-",
			  p->rx_queues, p->tx_queues);
		print_verdicts(o, p->verdict);
		nn_print_bool(o, PRINT_JSON, "flagged", NULL, (p->verdict & NN_DTV_FLAGGED) != 0);
		nn_printf(o, "\n");
		nn_close_object(o);
		free(pn);
		free(ln);
	}
	nn_close_array(o);
	if (!r->nports)
		nn_printf(o, "  (no ports)\n");
}

static void print_pools(struct nn_out *o, const struct nn_dt_report *r)
{
	nn_printf(o, "mempools:\n  %-24s %-6s %10s %10s %10s\n", "name", "socket", "size",
		  "populated", "in use");
	nn_open_array(o, "mempools");
	for (size_t i = 0; i < r->npools; i++) {
		const struct nn_dt_pool *p = &r->pools[i];

		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_ANY, "name", "  %-24s", p->name);
		nn_print_opt_int(o, PRINT_ANY, "socket", " %-6lld", p->socket, "any");
		nn_print_opt_int(o, PRINT_ANY, "size", " %10lld", p->size, "-");
		nn_print_opt_int(o, PRINT_ANY, "populated", " %10lld", p->populated, "-");
		nn_print_opt_int(o, PRINT_ANY, "in_use", " %10lld", p->in_use, "-");
		nn_printf(o, "\n");
		nn_close_object(o);
	}
	nn_close_array(o);
	if (!r->npools)
		nn_printf(o, "  (no mempools)\n");
}

static const char *lcore_source_name(enum nn_dt_lcore_source s)
{
	return s == NN_DT_LCORES_TELEMETRY ? "telemetry" : s == NN_DT_LCORES_PARAMS ? "eal_params" :
		NULL;
}

static void print_lcores(struct nn_out *o, const struct nn_dt_report *r)
{
	nn_print_string(o, PRINT_ANY, "lcore_source", "lcores (from %s):",
			lcore_source_name(r->lcore_source));
	nn_print_opt_int(o, PRINT_JSON, "main_lcore", NULL, r->main_lcore, NULL);
	nn_open_array(o, "lcores");
	for (size_t i = 0; i < r->nlcores; i++) {
		const struct nn_dt_lcore *l = &r->lcores[i];

		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_ANY, "lcore_id", " %lld", l->lcore_id);
		nn_print_cpuset(o, PRINT_ANY, "cpus", "@cpu %s", &l->cpus);
		nn_print_opt_int(o, PRINT_ANY, "node", " node %lld", l->node, "unknown");
		nn_print_string(o, PRINT_JSON, "role", NULL, str_or_null(l->role));
		nn_print_bool(o, PRINT_JSON, "main", NULL, l->main);
		nn_print_bool(o, PRINT_JSON, "polling", NULL, l->polling);
		nn_printf(o, "%s%s", l->main ? " (main)" : "", i + 1 < r->nlcores ? "," : "");
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_printf(o, "%s\n", r->nlcores ? "" : " none");
}

/* The process's threads and hugepage memory per node, as check --pid reads
 * them: what the kernel says beside what the telemetry says. */
static void print_process(struct nn_ctx *ctx, const struct nn_dt_report *r)
{
	struct nn_out *o = &ctx->out;
	struct nn_pm_thresholds th;
	struct nn_pm_cpu_nodes cn;
	struct nn_pm_snapshot s;
	size_t i;

	if (r->pid < 0)
		return;
	nn_pm_thresholds_default(&th);
	if (nn_pm_cpu_nodes_read(ctx, &cn))
		return;
	memset(&s, 0, sizeof(s));
	nn_open_object(o, "process");
	if (nn_pm_snapshot_read(ctx, &cn, &th, r->pid, &s)) {
		nn_warn(ctx, NULL, "pid %d of the telemetry greeting is not readable here "
			"(another pid namespace?): its threads and memory not shown", r->pid);
		nn_print_int(o, PRINT_JSON, "pid", NULL, r->pid);
		goto out;
	}
	nn_print_int(o, PRINT_ANY, "pid", "process: pid %lld", s.pid);
	nn_print_string(o, PRINT_ANY, "name", " (%s)", str_or_null(s.st.name));
	nn_print_cpuset(o, PRINT_ANY, "thread_nodes", ", threads last ran on node(s) %s",
			&s.thread_nodes);
	nn_printf(o, "; hugepage memory:");
	nn_open_array(o, "huge_bytes_by_node");
	for (i = 0; i < s.maps.nnodes; i++) {
		const struct nn_pm_node *n = &s.maps.nodes[i];

		if (!n->bytes[NN_MEM_HUGE])
			continue;
		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_ANY, "node", " N%lld", n->node);
		nn_print_uint(o, PRINT_ANY, "bytes", " %llu MiB", n->bytes[NN_MEM_HUGE] >> 20);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_printf(o, "%s\n", nn_numa_maps_total(&s.maps, NN_MEM_HUGE) ? "" : " none");
out:
	nn_close_object(o);
	nn_pm_snapshot_free(&s);
	nn_pm_cpu_nodes_free(&cn);
}

static void print_report(struct nn_ctx *ctx, const struct nn_dt_report *r)
{
	struct nn_out *o = &ctx->out;

	nn_open_object(o, "dpdk");
	nn_print_string(o, PRINT_ANY, "socket", "socket: %s\n", r->socket);
	nn_print_string(o, PRINT_ANY, "version", "%s", str_or_null(r->version));
	nn_print_opt_int(o, PRINT_ANY, "pid", ", pid %lld\n", r->pid, "unknown");
	nn_print_bool(o, PRINT_JSON, "skipped", NULL, r->skipped);
	if (r->skipped)
		nn_printf(o, "skipped: not the telemetry of the process it names (see warnings)\n");
	print_ports(o, r);
	print_pools(o, r);
	print_lcores(o, r);
	print_process(ctx, r);
	nn_open_array(o, "missing");
	if (r->nnotes)
		nn_printf(o, "missing from the telemetry:\n");
	for (size_t i = 0; i < r->nnotes; i++) {
		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_ANY, "what", "  %s: ", r->notes[i].what);
		nn_print_string(o, PRINT_ANY, "effect", "%s\n", r->notes[i].effect);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_print_uint(o, PRINT_ANY, "flagged_count", "%llu port(s) flagged\n", r->nflagged);
	nn_close_object(o);
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
	print_report(ctx, &r);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	err = r.nflagged || ctx->nwarns ? NN_EXIT_WARN : NN_EXIT_OK;
	nn_dt_report_free(&r);
	return err;
}
