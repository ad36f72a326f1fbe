// SPDX-License-Identifier: GPL-2.0-or-later
/* layout_print.c - the layout of "nicnuma layout" as a table and JSON (through core/print.c) */
#include <stdio.h>
#include <stdlib.h>

#include "nicnuma/core/print.h"
#include "nicnuma/core/strbuf.h"
#include "layout.h"

static const char *irq_text(char *buf, size_t size, const char *irq, bool shared)
{
	snprintf(buf, size, "%s %s", irq, shared ? "shared" : "left out");
	return buf;
}

void nn_layout_print(struct nn_out *o, const struct nn_layout *l, bool numactl)
{
	size_t i, k;

	nn_open_object(o, "layout");
	nn_print_string(o, PRINT_ANY, "service", "layout: service %s", l->service);
	nn_print_uint(o, PRINT_ANY, "ninstances", ", %llu instance(s)", l->ninst);
	nn_print_string(o, PRINT_ANY, "numa_binding", ", memory bound by %s",
			numactl ? "numactl" : "systemd");
	nn_print_cpuset(o, PRINT_ANY, "housekeeping", ", housekeeping CPUs %s\n", &l->housekeeping);
	nn_print_bool(o, PRINT_JSON, "dpdk", NULL, l->dpdk);
	nn_printf(o, "  %-20s %-5s %-14s %-16s %-24s %s\n", "UNIT", "NODE", "CPUS",
		  "QUEUE-IRQ CORES", "NICS", "HUGEPAGES");
	nn_open_array(o, "instances");
	for (i = 0; i < l->ninst; i++) {
		const struct nn_layout_instance *in = &l->inst[i];
		char *irq = nn_cpuset_format_list(&in->irq_cores);
		char irqtxt[96];
		struct nn_sb nics = NN_SB_INIT, hp = NN_SB_INIT;

		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_ANY, "unit", "  %-20s", in->unit);
		nn_print_int(o, PRINT_ANY, "node", " %-5lld", in->node);
		nn_print_cpuset(o, PRINT_ANY, "cpus", " %-14s", &in->cpus);
		nn_print_cpuset(o, PRINT_JSON, "node_cpus", NULL, &in->node_cpus);
		nn_print_cpuset(o, PRINT_JSON, "housekeeping", NULL, &in->housekeeping);
		nn_print_cpuset(o, PRINT_JSON, "irq_cores", NULL, &in->irq_cores);
		nn_print_bool(o, PRINT_JSON, "irq_cores_included", NULL, in->irq_cores_included);
		if (irq && *irq)
			nn_printf(o, " %-16s", irq_text(irqtxt, sizeof(irqtxt), irq,
							 in->irq_cores_included));
		else
			nn_printf(o, " %-16s", "-");
		free(irq);
		nn_open_array(o, "nics");
		for (k = 0; k < in->nnics; k++) {
			const struct nn_layout_nic *ln = &in->nics[k];

			nn_open_object(o, NULL);
			nn_print_string(o, PRINT_JSON, "name", NULL, ln->name);
			nn_print_string(o, PRINT_JSON, "pci", NULL, ln->pci);
			nn_print_opt_int(o, PRINT_JSON, "rx_queues", NULL, ln->rx_queues, NULL);
			nn_print_opt_int(o, PRINT_JSON, "tx_queues", NULL, ln->tx_queues, NULL);
			nn_print_uint(o, PRINT_JSON, "queue_irqs", NULL, ln->queue_irqs);
			nn_print_cpuset(o, PRINT_JSON, "irq_cpus", NULL, &ln->irq_cpus);
			nn_print_opt_int(o, PRINT_JSON, "numa_node", NULL, ln->node, NULL);
			nn_print_bool(o, PRINT_JSON, "locality_assumed", NULL, ln->locality_assumed);
			nn_close_object(o);
			nn_sb_printf(&nics, "%s%s", k ? "," : "", ln->name);
		}
		nn_close_array(o);
		nn_printf(o, " %-24s", in->nnics && nn_sb_str(&nics) ? nn_sb_str(&nics) : "-");
		nn_open_array(o, "hugepages");
		for (k = 0; k < in->nhugepages; k++) {
			nn_open_object(o, NULL);
			nn_print_uint(o, PRINT_JSON, "size_kb", NULL, in->hugepages[k].size_kb);
			nn_print_int(o, PRINT_JSON, "pages", NULL, in->hugepages[k].pages);
			nn_close_object(o);
			nn_sb_printf(&hp, "%s%ldx%lukB", k ? "," : "", in->hugepages[k].pages,
				     in->hugepages[k].size_kb);
		}
		nn_close_array(o);
		nn_print_uint(o, PRINT_JSON, "hugepage_bytes", NULL, in->hugepage_bytes);
		nn_printf(o, " %s\n", in->nhugepages && nn_sb_str(&hp) ? nn_sb_str(&hp) : "-");
		nn_sb_free(&nics);
		nn_sb_free(&hp);
		nn_print_cpuset(o, PRINT_JSON, "isolated", NULL, &in->isolated);
		if (!nn_cpuset_empty(&in->isolated)) {
			nn_printf(o, "  %-20s ", "");
			nn_print_cpuset(o, PRINT_FP, NULL, l->dpdk ?
					"isolated CPUs %s: the DPDK instance runs on them\n" :
					!nn_cpuset_intersects(&in->cpus, &in->isolated) ?
					"isolated CPUs %s: left out (not a DPDK instance)\n" :
					"isolated CPUs %s: the only ones left, the instance runs on them\n",
					&in->isolated);
		}
		if (l->dpdk) {
			char *eal = nn_layout_eal_string(in);

			nn_printf(o, "  %-20s ", "");
			nn_print_string(o, PRINT_ANY, "eal_args", "EAL: %s\n", eal);
			free(eal);
		} else {
			nn_print_null(o, PRINT_JSON, "eal_args", NULL);
		}
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_open_array(o, "unplaced_nics");
	for (i = 0; i < l->nunplaced; i++) {
		nn_print_string(o, PRINT_JSON, NULL, NULL, l->unplaced[i]);
		nn_printf(o, "%s  %s\n", i ? "" : "NICs without an instance:\n", l->unplaced[i]);
	}
	nn_close_array(o);
	nn_close_object(o);
}
