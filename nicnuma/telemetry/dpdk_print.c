// SPDX-License-Identifier: GPL-2.0-or-later
/* dpdk_print.c - the "check --dpdk" report: ports, mempools, lcores, the process, table and JSON */
#include <stdio.h>
#include <stdlib.h>

#include "nicnuma/core/print.h"
#include "nicnuma/telemetry/dpdk_telemetry.h"
#include "nicnuma/discover/procmap.h"

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
static void print_process(struct nn_out *o, const struct nn_dt_report *r)
{
	const struct nn_pm_snapshot *s = r->process;
	size_t i;

	if (!s)
		return;
	nn_open_object(o, "process");
	if (r->process_unreadable) {
		nn_print_int(o, PRINT_JSON, "pid", NULL, r->pid);
		nn_close_object(o);
		return;
	}
	nn_print_int(o, PRINT_ANY, "pid", "process: pid %lld", s->pid);
	nn_print_string(o, PRINT_ANY, "name", " (%s)", str_or_null(s->st.name));
	nn_print_cpuset(o, PRINT_ANY, "thread_nodes", ", threads last ran on node(s) %s",
			&s->thread_nodes);
	nn_printf(o, "; hugepage memory:");
	nn_open_array(o, "huge_bytes_by_node");
	for (i = 0; i < s->maps.nnodes; i++) {
		const struct nn_pm_node *n = &s->maps.nodes[i];

		if (!n->bytes[NN_MEM_HUGE])
			continue;
		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_ANY, "node", " N%lld", n->node);
		nn_print_uint(o, PRINT_ANY, "bytes", " %llu MiB", n->bytes[NN_MEM_HUGE] >> 20);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_printf(o, "%s\n", nn_numa_maps_total(&s->maps, NN_MEM_HUGE) ? "" : " none");
	nn_close_object(o);
}

void nn_dt_report_print(struct nn_out *o, const struct nn_dt_report *r)
{
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
	print_process(o, r);
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
