// SPDX-License-Identifier: GPL-2.0-or-later
/* nic_print.c - the "nicnuma nics" report of a host snapshot: table and JSON */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/print.h"
#include "nicnuma/discover/napi_index.h"
#include "nicnuma/discover/nic_print.h"
#include "nicnuma/discover/pcie.h"

static const char *dir_name(enum nn_qdir d)
{
	switch (d) {
	case NN_QDIR_RXTX:
		return "rxtx";
	case NN_QDIR_RX:
		return "rx";
	case NN_QDIR_TX:
		return "tx";
	default:
		return NULL;
	}
}

/* An affinity within the device's local CPUs is local; unknown when locality is. */
static int affinity_local(const struct nn_nic *nic, const struct nn_cpuset *aff, bool has)
{
	if (!has || !nic->locality_known || nn_cpuset_empty(&nic->local_cpus) || nn_cpuset_empty(aff))
		return -1;
	return nn_cpuset_subset(aff, &nic->local_cpus);
}

static void print_opt_bool(struct nn_out *o, const char *key, int v)
{
	if (v < 0)
		nn_print_null(o, PRINT_JSON, key, NULL);
	else
		nn_print_bool(o, PRINT_JSON, key, NULL, v > 0);
}

static void print_cpuset_or_null(struct nn_out *o, int type, const char *key, const char *fmt,
				 const struct nn_cpuset *s, bool known)
{
	if (known && !nn_cpuset_empty(s))
		nn_print_cpuset(o, type, key, fmt, s);
	else
		nn_print_null(o, type, key, fmt);
}

static int width_of(const struct nn_cpuset *s, int w)
{
	char *str = nn_cpuset_format_list(s);
	int n = str ? (int)strlen(str) : 0;

	free(str);
	return n > w ? n : w;
}

/* The plan the placement verdict (irq_place.h) is judged against. */
struct judge {
	const struct nn_topo *t;
	nn_planned_cpus_fn planned;	/* NULL: no plan */
	const void *plan;
};

static enum nn_irq_place judge_irq(const struct judge *j, int home, const struct nn_irq *q)
{
	return nn_irq_place(j->t, home, nn_irq_where(q), j->planned ? j->planned(j->plan, q->irq) : NULL);
}

static void print_irqs(struct nn_out *o, const struct nn_nic *nic, const struct judge *j, bool table)
{
	int home = nn_irq_place_home(j->t, nic);
	int t = PRINT_JSON | (table ? PRINT_FP : 0);
	int wa = 8, we = 9;
	char fa[16], fe[16];
	size_t i;

	/* Column widths only matter to the table; JSON skips formatting every
	 * list twice (2000 IRQs on a large host). */
	for (i = 0; table && !o->json && i < nic->nirqs; i++) {
		wa = width_of(&nic->irqs[i].affinity, wa);
		we = width_of(&nic->irqs[i].effective, we);
	}
	snprintf(fa, sizeof(fa), "%%-%ds  ", wa);
	snprintf(fe, sizeof(fe), "%%-%ds  ", we);
	if (table && nic->nirqs)
		nn_printf(o, "  %-6s %-6s %-5s %-8s %-*s  %-*s  %-7s %s\n", "IRQ", "QUEUE", "DIR", "FROM",
			  wa, "AFFINITY", we, "EFFECTIVE", "PLACED", "NAME");
	nn_open_array(o, "irqs");
	for (i = 0; i < nic->nirqs; i++) {
		const struct nn_irq *q = &nic->irqs[i];
		int loc = affinity_local(nic, &q->affinity, q->has_affinity);
		int eloc = affinity_local(nic, &q->effective, q->has_effective);
		enum nn_irq_place place;
		const char *placed;

		nn_open_object(o, NULL);
		if (table)
			nn_printf(o, "  ");
		nn_print_int(o, t, "irq", "%-6lld ", q->irq);
		nn_print_string(o, PRINT_JSON, "name", NULL, q->name);
		nn_print_opt_int(o, t, "queue", "%-6lld ", q->queue, "-");
		nn_print_string(o, t, "dir", "%-5s ", dir_name(q->dir));
		nn_print_string(o, PRINT_JSON, "role", NULL, nn_irq_role_name(q->role));
		nn_print_string(o, t, "source", "%-8s ", nn_irq_source_name(q->source));
		nn_print_opt_int(o, PRINT_JSON, "napi_id", NULL, q->napi_id, NULL);
		print_cpuset_or_null(o, t, "affinity", fa, &q->affinity, q->has_affinity);
		print_cpuset_or_null(o, t, "effective_affinity", fe, &q->effective, q->has_effective);
		print_opt_bool(o, "affinity_local", loc);
		print_opt_bool(o, "effective_local", eloc);
		/* What counts is where it really fires, judged as every command does. */
		place = judge_irq(j, home, q);
		nn_print_string(o, PRINT_JSON, "placement", NULL, nn_irq_place_name(place));
		placed = place == NN_PLACE_OFF ? "REMOTE" : place == NN_PLACE_UNKNOWN ? "?" : nn_irq_place_name(place);
		/* a down NIC's vectors: its driver requests them when the link is opened */
		if (table && !q->name && nic->link_down)
			nn_printf(o, "%-7s %s\n", "down", "(link down: no IRQ until the link is up)");
		else if (table)
			nn_printf(o, "%-7s %s\n", placed, q->name ? q->name : "(not in /proc/interrupts)");
		nn_close_object(o);
	}
	nn_close_array(o);
}

static const char *binding_name(const struct nn_genl_queue *q)
{
	return q->xsk ? "xsk" : q->io_uring ? "io_uring" : q->dmabuf >= 0 ? "dmabuf" : NULL;
}

/* "queues": the kernel's queue -> NAPI -> IRQ/thread (netdev genl), null when
 * it was not asked (kernel before 6.8, a fake root without saved answers). */
static void print_queues(struct nn_out *o, const struct nn_nic *nic, bool table)
{
	struct nn_napi_index ix;
	size_t i, nthr = 0;
	bool indexed;

	if (!nic->genl_read) {
		nn_print_null(o, PRINT_JSON, "queues", NULL);
		return;
	}
	/* Sorted lookup: a capture may hold 100k of each. Out of memory: the
	 * same answers by a scan. */
	indexed = !nn_napi_index_init(&ix, nic->gnapis, nic->ngnapis);
	nn_open_array(o, "queues");
	for (i = 0; i < nic->ngqueues; i++) {
		const struct nn_genl_queue *q = &nic->gqueues[i];
		const struct nn_genl_napi *np = NULL;
		long k = -1;
		size_t j;

		if (indexed)
			k = nn_napi_index_find(&ix, q->napi_id);
		for (j = 0; !indexed && k < 0 && j < nic->ngnapis && q->napi_id >= 0; j++)
			if (nic->gnapis[j].id == q->napi_id)
				k = (long)j;
		if (k >= 0)
			np = &nic->gnapis[k];
		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_JSON, "type", NULL, q->type == NN_GENL_QUEUE_RX ? "rx" :
				q->type == NN_GENL_QUEUE_TX ? "tx" : "other");
		nn_print_int(o, PRINT_JSON, "id", NULL, q->id);
		nn_print_opt_int(o, PRINT_JSON, "napi_id", NULL, q->napi_id, NULL);
		nn_print_opt_int(o, PRINT_JSON, "irq", NULL, np ? np->irq : -1, NULL);
		nn_print_opt_int(o, PRINT_JSON, "napi_pid", NULL, np ? np->pid : -1, NULL);
		if (np && np->threaded >= 0)
			nn_print_bool(o, PRINT_JSON, "threaded", NULL, np->threaded != 0);
		else
			nn_print_null(o, PRINT_JSON, "threaded", NULL);
		nn_print_string(o, PRINT_JSON, "binding", NULL, binding_name(q));
		nn_close_object(o);
	}
	nn_close_array(o);
	if (indexed)
		nn_napi_index_free(&ix);
	for (i = 0; i < nic->ngnapis; i++)
		nthr += nic->gnapis[i].pid > 0;
	if (table)
		nn_printf(o, "  %s: netdev genl: %zu queue%s, %zu NAPI%s, %zu with a thread\n", nic->name, nic->ngqueues,
			  nic->ngqueues == 1 ? "" : "s", nic->ngnapis, nic->ngnapis == 1 ? "" : "s", nthr);
}

static void locality_line(struct nn_out *o, const struct nn_nic *nic, const struct nn_topo *t)
{
	char *local = nn_cpuset_format_list(&nic->local_cpus);

	if (nic->numa_node >= 0 && nic->local_cpus_read && nn_cpuset_empty(&nic->local_cpus)) {
		int near = nn_topo_nearest_node(t, nic->numa_node, NN_NODE_ONLINE_CPUS, NULL, NULL);
		const struct nn_node *nd = near >= 0 ? nn_topo_node(t, near) : NULL;
		char *cpus = nd ? nn_cpuset_format_list(&nd->cpus) : NULL;

		nn_printf(o, "node %d, which has no CPUs", nic->numa_node);
		if (nd && cpus)
			nn_printf(o, " (nearest CPUs: node %d, %s, distance %d)", near, cpus,
				  nn_topo_distance(t, nic->numa_node, near));
		free(cpus);
	} else if (nic->numa_node >= 0) {
		nn_printf(o, "node %d, local CPUs %s", nic->numa_node,
			  nic->local_cpus_read && local ? local : "unknown");
	} else if (nic->locality_known) {
		nn_printf(o, "numa_node -1 but local CPUs %s (narrower than all CPUs)", local);
	} else if (local && *local) {
		nn_printf(o, "unknown locality (numa_node -1, local_cpulist %s spans every CPU)", local);
	} else {
		nn_printf(o, "unknown locality (numa_node -1, no local_cpulist)");
	}
	free(local);
}

/* GT/s as a JSON number (2.5, 8.0); null when unknown. */
static void print_gts(struct nn_out *o, const char *key, int mts)
{
	if (mts > 0)
		nn_print_double(o, PRINT_JSON, key, NULL, mts / 1000.0);
	else
		nn_print_null(o, PRINT_JSON, key, NULL);
}

static void print_link(struct nn_out *o, const struct nn_pcie_link *l, long mbps_of_ports)
{
	nn_open_object(o, NULL);
	nn_print_string(o, PRINT_JSON, "device", NULL, l->dev);
	nn_print_string(o, PRINT_JSON, "port", NULL, l->port[0] ? l->port : NULL);
	print_gts(o, "speed_gts", l->cur_mts);
	nn_print_opt_int(o, PRINT_JSON, "width", NULL, l->cur_width, NULL);
	print_gts(o, "cap_speed_gts", l->cap_mts);
	nn_print_opt_int(o, PRINT_JSON, "cap_width", NULL, l->cap_width, NULL);
	nn_print_opt_int(o, PRINT_JSON, "bandwidth_mbps", NULL, l->mbps, NULL);
	nn_print_opt_int(o, PRINT_JSON, "ports_mbps", NULL, mbps_of_ports, NULL);
	nn_close_object(o);
}

/* "16 GT/s x8", "? GT/s x8", "unknown" */
static void link_words(char *buf, size_t size, int mts, int width)
{
	char gts[16] = "?";

	if (mts <= 0 && width <= 0) {
		snprintf(buf, size, "unknown");
		return;
	}
	if (mts > 0)
		nn_pcie_fmt_gts(gts, sizeof(gts), mts);
	if (width > 0)
		snprintf(buf, size, "%s GT/s x%d", gts, width);
	else
		snprintf(buf, size, "%s GT/s x?", gts);
}

/* JSON "pcie" (null for virtio and non-PCI devices), text one line. */
static void print_pcie(struct nn_out *o, const struct nn_nic *nic, bool text)
{
	const struct nn_pcie *p = nic->pcie;
	const struct nn_pcie_link *own, *narrow;
	char cur[48], max[48], gb[32];
	size_t i;

	if (!p) {
		nn_print_null(o, PRINT_JSON, "pcie", NULL);
		if (text)
			nn_printf(o, "  %s: PCIe: not a PCIe device\n", nic->name);
		return;
	}
	own = p->nlinks ? &p->links[p->nlinks - 1] : NULL;
	narrow = p->v.narrowest >= 0 ? &p->links[p->v.narrowest] : NULL;
	nn_open_object(o, "pcie");
	print_gts(o, "speed_gts", p->fn_cur_mts);
	nn_print_opt_int(o, PRINT_JSON, "width", NULL, p->fn_cur_width, NULL);
	print_gts(o, "max_speed_gts", p->fn_max_mts);
	nn_print_opt_int(o, PRINT_JSON, "max_width", NULL, p->fn_max_width, NULL);
	nn_print_opt_int(o, PRINT_JSON, "bandwidth_mbps", NULL, own ? own->mbps : -1, NULL);
	nn_print_opt_int(o, PRINT_JSON, "path_bandwidth_mbps", NULL, narrow ? narrow->mbps : -1, NULL);
	nn_print_string(o, PRINT_JSON, "bottleneck", NULL, narrow ? narrow->dev : NULL);
	nn_print_opt_int(o, PRINT_JSON, "port_speed_mbps", NULL, p->port_mbps, NULL);
	nn_open_array(o, "shared_ports");
	for (i = 0; i < p->nshared; i++)
		nn_print_string(o, PRINT_JSON, NULL, NULL, p->shared[i]);
	nn_close_array(o);
	nn_print_opt_int(o, PRINT_JSON, "shared_speed_mbps", NULL,
			 own && !own->ports_unknown ? own->ports_mbps : -1, NULL);
	nn_open_array(o, "links");
	for (i = 0; i < p->nlinks; i++)
		print_link(o, &p->links[i], p->links[i].ports_unknown ? -1 : p->links[i].ports_mbps);
	nn_close_array(o);
	nn_print_string(o, PRINT_JSON, "verdict", NULL, p->v.text);
	if (p->v.state == NN_PCIE_OK || p->v.state == NN_PCIE_BAD)
		nn_print_bool(o, PRINT_JSON, "healthy", NULL, p->v.state == NN_PCIE_OK);
	else
		nn_print_null(o, PRINT_JSON, "healthy", NULL);
	nn_close_object(o);
	if (!text)
		return;

	link_words(cur, sizeof(cur), p->fn_cur_mts, p->fn_cur_width);
	link_words(max, sizeof(max), p->fn_max_mts, p->fn_max_width);
	nn_printf(o, "  %s: PCIe %s (max %s)", nic->name, cur, max);
	if (narrow) {
		nn_pcie_fmt_gbps(gb, sizeof(gb), narrow->mbps);
		nn_printf(o, ", %s Gb/s usable", gb);
		if (narrow != own)
			nn_printf(o, " at %s", narrow->dev);
	}
	if (p->port_mbps > 0) {
		nn_pcie_fmt_gbps(gb, sizeof(gb), p->port_mbps);
		nn_printf(o, ", port %s Gb/s", gb);
	}
	if (p->nshared > 1) {
		nn_printf(o, " (link shared with");
		for (i = 0; i < p->nshared; i++)
			if (strcmp(p->shared[i], nic->name))
				nn_printf(o, " %s", p->shared[i]);
		nn_printf(o, ")");
	}
	nn_printf(o, ": %s\n", p->v.text);
}

/* Distinct queues a table sends to. */
static unsigned int rss_queues_used(const struct nn_rss *r)
{
	static unsigned char seen[NN_RSS_MAX_QUEUE + 1];
	unsigned int i, used = 0;

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < r->size; i++)
		if (r->table[i] <= NN_RSS_MAX_QUEUE && !seen[r->table[i]]) {
			seen[r->table[i]] = 1;
			used++;
		}
	return used;
}

/* "rss": {"table_size","rings","queues_used","table":[..]}, or null when
 * there is none to show (fake root, unsupported, unreadable). */
static void print_rss_json(struct nn_out *o, const struct nn_rss *r)
{
	unsigned int i;

	if (r->state != NN_RSS_OK) {
		nn_print_null(o, PRINT_JSON, "rss", NULL);
		return;
	}
	nn_open_object(o, "rss");
	nn_print_uint(o, PRINT_JSON, "table_size", NULL, r->size);
	nn_print_opt_int(o, PRINT_JSON, "rings", NULL, r->rings ? (int)r->rings : -1, NULL);
	nn_print_uint(o, PRINT_JSON, "queues_used", NULL, rss_queues_used(r));
	nn_open_array(o, "table");
	for (i = 0; i < r->size; i++)
		nn_print_uint(o, PRINT_JSON, NULL, NULL, r->table[i]);
	nn_close_array(o);
	nn_close_object(o);
}

static void print_rss_text(struct nn_out *o, const struct nn_nic *nic)
{
	const struct nn_rss *r = &nic->rss;

	nn_printf(o, "  %s: rss: ", nic->name);
	switch (r->state) {
	case NN_RSS_NOT_READ:
		nn_printf(o, "not read under --root\n");
		break;
	case NN_RSS_UNSUPPORTED:
		nn_printf(o, "not supported by this driver\n");
		break;
	case NN_RSS_ERROR:
		nn_printf(o, "unreadable (see the warning)\n");
		break;
	case NN_RSS_OK:
		nn_printf(o, "table of %u entries over %u queue%s", r->size, rss_queues_used(r),
			  rss_queues_used(r) == 1 ? "" : "s");
		if (r->rings)
			nn_printf(o, " of %u", r->rings);
		nn_printf(o, "\n");
		break;
	}
}

/* "parent_function": {"pci", "kind": "sriov_vf" | "sub_function"} or null. */
static void print_parent(struct nn_out *o, const struct nn_nic *nic)
{
	if (!nic->parent_fn) {
		nn_print_null(o, PRINT_JSON, "parent_function", NULL);
		return;
	}
	nn_open_object(o, "parent_function");
	nn_print_string(o, PRINT_JSON, "pci", NULL, nic->parent_fn);
	nn_print_string(o, PRINT_JSON, "kind", NULL, nic->parent_is_pf ? "sriov_vf" : "sub_function");
	nn_close_object(o);
}

/* The DRIVER/KIND cell: the driver, or a virtual device's kind. */
static const char *driver_cell(const struct nn_nic *nic, char *buf, size_t len)
{
	if (!nic->is_virtual)
		return nic->driver ? nic->driver : "?";
	snprintf(buf, len, "virtual %s", nic->kind ? nic->kind : "(kind unknown)");
	return buf;
}

static void print_nic(struct nn_out *o, const struct nn_cols *c, const struct nn_nic *nic, const struct judge *j,
		      bool brief)
{
	const struct nn_topo *t = j->t;
	char kind[80];
	int home = nn_irq_place_home(t, nic);
	unsigned int queues = 0, remote = 0, spill = 0;
	struct nn_place_count pc;
	size_t i;

	nn_open_object(o, NULL);
	nn_print_string(o, PRINT_JSON, "name", NULL, nic->name);
	nn_print_opt_int(o, PRINT_JSON, "ifindex", NULL, nic->ifindex, NULL);
	nn_print_bool(o, PRINT_JSON, "virtual", NULL, nic->is_virtual);
	nn_print_string(o, PRINT_JSON, "kind", NULL, nic->kind);
	nn_print_string(o, PRINT_JSON, "pci", NULL, nic->pci);
	print_parent(o, nic);
	nn_print_string(o, PRINT_JSON, "driver", NULL, nic->driver);
	nn_print_opt_int(o, PRINT_JSON, "numa_node", NULL, nic->numa_node, NULL);
	if (nic->local_cpus_read)
		nn_print_cpuset(o, PRINT_JSON, "local_cpus", NULL, &nic->local_cpus);
	else
		nn_print_null(o, PRINT_JSON, "local_cpus", NULL);
	nn_print_bool(o, PRINT_JSON, "locality_known", NULL, nic->locality_known);
	nn_print_opt_int(o, PRINT_JSON, "speed_mbps", NULL, nic->speed_mbps, NULL);
	nn_print_opt_int(o, PRINT_JSON, "rx_queues", NULL, nic->rx_queues, NULL);
	nn_print_opt_int(o, PRINT_JSON, "tx_queues", NULL, nic->tx_queues, NULL);
	nn_open_object(o, "channels");
	nn_print_opt_int(o, PRINT_JSON, "combined", NULL, nic->channels_combined, NULL);
	nn_print_opt_int(o, PRINT_JSON, "max_combined", NULL, nic->channels_max, NULL);
	nn_close_object(o);
	print_rss_json(o, &nic->rss);

	/* Text: one summary row, then (unless --brief) the device's IRQs. */
	nn_print_cell(o, PRINT_FP, NULL, c, 0, nic->name);
	nn_print_cell(o, PRINT_FP, NULL, c, 1, driver_cell(nic, kind, sizeof(kind)));
	if (nic->is_virtual) {
		nn_printf(o, "%-13s %-8s ", "-", "-");
	} else {
		nn_printf(o, "%-13s ", nic->pci ? nic->pci : "-");
		if (nic->numa_node >= 0)
			nn_printf(o, "%-8d ", nic->numa_node);
		else
			nn_printf(o, "%-8s ", nic->locality_known ? "-1*" : "unknown");
	}
	if (nic->speed_mbps > 0)
		nn_printf(o, "%-9ld ", nic->speed_mbps);
	else
		nn_printf(o, "%-9s ", "unknown");
	if (nic->rx_queues >= 0 && nic->tx_queues >= 0)
		nn_printf(o, "%3d/%-3d  ", nic->rx_queues, nic->tx_queues);
	else
		nn_printf(o, "%-9s", "?");
	if (nic->channels_combined >= 0)
		nn_printf(o, "%3d/%-3d  ", nic->channels_combined, nic->channels_max);
	else
		nn_printf(o, "%-9s", "-");
	/* the column counts every IRQ, judged as the PLACED column judges it */
	for (i = 0; i < nic->nirqs; i++) {
		enum nn_irq_place p = judge_irq(j, home, &nic->irqs[i]);

		queues += nic->irqs[i].queue >= 0;
		remote += p == NN_PLACE_OFF;
		spill += p == NN_PLACE_SPILL;
	}
	/* the queue IRQs' verdicts, the numbers metrics and report give */
	nn_nic_place_count(t, nic, j->planned, j->plan, &pc);
	if (!nic->is_virtual && home >= 0) {
		nn_open_object(o, "placements");
		nn_print_int(o, PRINT_JSON, "local", NULL, pc.local);
		nn_print_int(o, PRINT_JSON, "spill", NULL, pc.spill);
		nn_print_int(o, PRINT_JSON, "off", NULL, pc.off);
		nn_print_int(o, PRINT_JSON, "unknown", NULL, pc.unknown);
		nn_close_object(o);
	} else {
		nn_print_null(o, PRINT_JSON, "placements", NULL);
	}
	nn_printf(o, "%zu", nic->nirqs);
	if (remote)
		nn_printf(o, " (%u REMOTE)", remote);
	if (spill)
		nn_printf(o, " (%u spill)", spill);
	nn_printf(o, "\n");

	if (!brief && !nic->is_virtual) {
		nn_printf(o, "  %s: ", nic->name);
		locality_line(o, nic, t);
		nn_printf(o, "; %u queue IRQ%s of %zu\n", queues, queues == 1 ? "" : "s", nic->nirqs);
		if (nic->parent_fn)
			nn_printf(o, "  %s: %s of PCI function %s\n", nic->name,
				  nic->parent_is_pf ? "SR-IOV VF" : "sub-function", nic->parent_fn);
		print_rss_text(o, nic);
	}
	print_pcie(o, nic, !brief && !nic->is_virtual);
	print_queues(o, nic, !brief && !nic->is_virtual);
	print_irqs(o, nic, j, !brief && !nic->is_virtual && nic->nirqs);
	if (!brief && !nic->is_virtual)
		nn_printf(o, "\n");
	nn_close_object(o);
}

static void print_irqbalance(struct nn_out *o, const struct nn_irqbalance_state *ib)
{
	nn_open_object(o, "irqbalance");
	nn_print_bool(o, PRINT_JSON, "running", NULL, ib->running);
	nn_print_opt_int(o, PRINT_JSON, "pid", NULL, ib->pid, NULL);
	nn_print_string(o, PRINT_JSON, "cmdline", NULL, ib->cmdline);
	nn_print_bool(o, PRINT_JSON, "systemd", NULL, ib->systemd);
	nn_close_object(o);
	if (ib->running)
		nn_printf(o, "\nirqbalance: running (pid %d: %s); it moves IRQs, so affinities above "
			  "can change under you\n", ib->pid, ib->cmdline ? ib->cmdline : "?");
	else
		nn_printf(o, "\nirqbalance: not running\n");
}

/* The PCI functions on vfio-pci (host->ports, nn_host_bound_ports_read): no
 * netdev to list them by, so a table of their own. */
static void print_ports(struct nn_out *o, const struct nn_host *h)
{
	size_t i;

	if (h->nports)
		nn_printf(o, "\n%-16s %-22s %-8s %s\n", "PORT", "DRIVER", "NODE", "IOMMU GROUP");
	nn_open_array(o, "ports");
	for (i = 0; i < h->nports; i++) {
		const struct nn_port *p = &h->ports[i];

		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_ANY, "pci", "%-16s ", p->fn.pci);
		nn_print_string(o, PRINT_ANY, "driver", "%-22s ", p->fn.driver[0] ? p->fn.driver : NULL);
		if (p->node >= 0)
			nn_print_int(o, PRINT_ANY, "node", "%-8lld ", p->node);
		else
			nn_print_null(o, PRINT_ANY, "node", "%-8s ");
		if (p->iommu_group >= 0)
			nn_print_int(o, PRINT_ANY, "iommu_group", "%lld\n", p->iommu_group);
		else
			nn_print_null(o, PRINT_ANY, "iommu_group", "%s\n");
		nn_close_object(o);
	}
	nn_close_array(o);
}

void nn_nics_print(struct nn_out *o, const struct nn_host *h, char *const *names, size_t nnames,
		   bool brief, nn_planned_cpus_fn planned, const void *plan)
{
	static const char *const titles[] = { "NIC", "DRIVER/KIND", "PCI", "NODE", "SPEED", "RXQ/TXQ",
					      "CHANNELS", "IRQS" };
	/* NIC and DRIVER/KIND as wide as their longest (the others are fixed) */
	static const int min[] = { 16, 22, 13, 8, 9, 8, 8, 0 };
	const struct judge j = { &h->topo, planned, plan };
	struct nn_cols c;
	char kind[80];
	size_t k, i;
	int pass;

	nn_cols_init(&c, sizeof(min) / sizeof(min[0]), min);
	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			nn_print_cols_header(o, &c, titles);
			if (!brief)
				nn_printf(o, "\n");
			nn_open_array(o, "nics");
		}
		for (k = 0; k < h->nnics; k++) {
			bool want = !nnames;

			for (i = 0; i < nnames && !want; i++)
				want = !strcmp(names[i], h->nics[k].name);
			if (!want)
				continue;
			if (pass) {
				print_nic(o, &c, &h->nics[k], &j, brief);
			} else {
				nn_cols_fit(&c, 0, h->nics[k].name);
				nn_cols_fit(&c, 1, driver_cell(&h->nics[k], kind, sizeof(kind)));
			}
		}
	}
	nn_close_array(o);
	print_ports(o, h);
	print_irqbalance(o, &h->irqbalance);
}
