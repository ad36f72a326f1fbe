// SPDX-License-Identifier: GPL-2.0-or-later
/* hostview_print.c - what "nicnuma report" drew, as its summary: counts, traffic, off-node IRQs */
#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/print.h"
#include "nicnuma/plan/hostview.h"

static const char *mark(bool off, bool spill)
{
	return off ? " OFF" : spill ? " spill" : "";
}

static void print_off(struct nn_out *o, const struct nn_hv_irq *m)
{
	nn_open_object(o, NULL);
	nn_print_int(o, PRINT_JSON, "irq", NULL, m->irq);
	nn_print_string(o, PRINT_JSON, "nic", NULL, m->nic);
	nn_print_int(o, PRINT_JSON, "queue", NULL, m->queue);
	nn_print_opt_int(o, PRINT_JSON, "nic_node", NULL, m->nic_node, NULL);
	nn_print_opt_int(o, PRINT_JSON, "now_cpu", NULL, m->now_cpu, NULL);
	nn_print_opt_int(o, PRINT_JSON, "now_node", NULL, m->now_node, NULL);
	nn_print_bool(o, PRINT_JSON, "now_off", NULL, m->now_off);
	nn_print_opt_int(o, PRINT_JSON, "planned_cpu", NULL, m->plan_cpu, NULL);
	nn_print_opt_int(o, PRINT_JSON, "planned_node", NULL, m->plan_node, NULL);
	nn_print_bool(o, PRINT_JSON, "planned_off", NULL, m->plan_off);
	nn_print_bool(o, PRINT_JSON, "now_spill", NULL, m->now_spill);
	nn_print_bool(o, PRINT_JSON, "planned_spill", NULL, m->plan_spill);
	nn_close_object(o);
	if (!o->json)
		nn_printf(o, "  IRQ %-6d %-16s queue %-3d NIC node %-3d today CPU %d (node %d)%s, planned CPU %d "
			  "(node %d)%s\n", m->irq, m->nic, m->queue, m->nic_node, m->now_cpu, m->now_node,
			  mark(m->now_off, m->now_spill), m->plan_cpu, m->plan_node, mark(m->plan_off, m->plan_spill));
}

void nn_hostview_summary_print(struct nn_out *o, const struct nn_hostview *v, const char *file, bool svg,
			       size_t bytes)
{
	size_t i;

	nn_open_object(o, "report");
	nn_print_string(o, PRINT_ANY, "file", "report: wrote %s", file);
	nn_print_string(o, PRINT_ANY, "format", " (%s", svg ? "svg" : "html");
	nn_print_uint(o, PRINT_ANY, "bytes", ", %llu bytes)\n", bytes);
	nn_print_uint(o, PRINT_ANY, "nodes", "  %llu nodes", v->host->topo.nnodes);
	nn_print_uint(o, PRINT_ANY, "cpus", ", %llu CPUs", v->host->topo.ncpus);
	nn_print_uint(o, PRINT_ANY, "nics", ", %llu NICs", v->nnics);
	nn_print_uint(o, PRINT_ANY, "queue_irqs", ", %llu queue IRQs", v->nirqs);
	nn_print_uint(o, PRINT_ANY, "moves", ", %llu moved by the plan\n", v->moves);
	nn_print_uint(o, PRINT_ANY, "off_node_now", "  off the NIC's node against the plan: %llu today", v->now_off);
	nn_print_uint(o, PRINT_ANY, "off_node_planned", ", %llu as planned", v->plan_off);
	nn_print_uint(o, PRINT_ANY, "spill_now", "; spilled to a near node by the plan: %llu today", v->now_spill);
	nn_print_uint(o, PRINT_ANY, "spill_planned", ", %llu as planned", v->plan_spill);
	nn_print_uint(o, PRINT_ANY, "unplaced_now", "; %llu without one known CPU today\n", v->now_unplaced);
	nn_print_cpuset(o, PRINT_JSON, "claimed", NULL, nn_host_claimed_cpus(v->host));
	if (!nn_cpuset_empty(nn_host_claimed_cpus(v->host)))
		nn_print_cpuset(o, PRINT_FP, NULL, "  claimed CPUs %s (outlined: no NIC work while claimed)\n",
				nn_host_claimed_cpus(v->host));
	if (v->traffic) {
		double ti = 0, ts = 0;

		for (i = 0; i < v->traffic->ncpus; i++) {
			ti += v->traffic->irq[i];
			ts += v->traffic->softirq[i];
		}
		nn_open_object(o, "traffic");
		nn_print_double(o, PRINT_ANY, "seconds", "  observed %.0f s", v->traffic->seconds);
		nn_print_double(o, PRINT_ANY, "irq_rate", ": %.0f interrupts/s of the NICs", ti);
		nn_print_double(o, PRINT_ANY, "softirq_rate", ", %.0f NET softirqs/s\n", ts);
		nn_close_object(o);
	} else {
		nn_print_null(o, PRINT_JSON, "traffic", NULL);
	}
	nn_open_array(o, "unknown_locality");
	for (i = 0; i < v->nnics; i++)
		if (nn_hostview_nic_node(&v->host->topo, v->nics[i]) < 0)
			nn_print_string(o, PRINT_ANY, NULL, "  unknown locality (not judged): %s\n",
					v->nics[i]->name);
	nn_close_array(o);
	nn_open_array(o, "off_node");
	for (i = 0; i < v->nirqs; i++)
		if (v->irqs[i].now_off || v->irqs[i].plan_off || v->irqs[i].now_spill || v->irqs[i].plan_spill)
			print_off(o, &v->irqs[i]);
	nn_close_array(o);
	nn_open_array(o, "plan_warnings");
	for (i = 0; v->plan && i < v->plan->nwarnings; i++)
		nn_print_string(o, PRINT_ANY, NULL, "  plan: %s\n", v->plan->warnings[i]);
	nn_close_array(o);
	nn_open_array(o, "plan_notes");
	for (i = 0; v->plan && i < v->plan->nnotes; i++)
		nn_print_string(o, PRINT_ANY, NULL, "  plan: note: %s\n", v->plan->notes[i]);
	nn_close_array(o);
	nn_close_object(o);
}
