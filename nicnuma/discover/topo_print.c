// SPDX-License-Identifier: GPL-2.0-or-later
/* topo_print.c - the topology report of "nicnuma topo" (table and JSON through core/print.c) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/parse.h"
#include "nicnuma/core/print.h"
#include "topo.h"

static const char *balancing_meaning(int v)
{
	switch (v) {
	case 0:
		return "off: the kernel leaves tasks and pages where they are; placement is what you set";
	case 1:
		return "on: the kernel samples page faults and migrates pages and tasks toward the node "
		       "that uses them; it can move a pinned data plane's memory and adds fault overhead";
	case 2:
		return "memory tiering: hot pages are promoted from slow to fast memory nodes";
	case 3:
		return "on, with memory tiering: pages and tasks migrate and hot pages get promoted";
	case -1:
		return "unknown (the file was unreadable)";
	default:
		return "unrecognised value";
	}
}

static void zone_reclaim_meaning(int v, char *buf, size_t size)
{
	if (v < 0) {
		snprintf(buf, size, "unknown (the file was missing or unreadable)");
		return;
	}
	if (v == 0) {
		snprintf(buf, size, "off: when the local node is full, allocations go to other nodes "
			 "before reclaiming locally (usual for servers)");
		return;
	}
	/* Bits: 1 reclaim (drop clean page cache), 2 write dirty pages, 4 swap. */
	snprintf(buf, size, "on: a full node reclaims its own memory before allocating remotely "
		 "(%s%s%s); keeps memory local at the cost of reclaim stalls",
		 (v & 1) ? "drops clean page cache" : "reclaim bit unset",
		 (v & 2) ? ", writes dirty pages out" : "",
		 (v & 4) ? ", swaps pages out" : "");
}

static const char *thp_enabled_meaning(const char *v)
{
	if (!*v)
		return "unknown";
	if (!strcmp(v, "always"))
		return "any anonymous memory may be backed by huge pages (and khugepaged collapses)";
	if (!strcmp(v, "madvise"))
		return "only memory marked MADV_HUGEPAGE gets huge pages";
	if (!strcmp(v, "never"))
		return "transparent huge pages are off (hugetlbfs pages are separate)";
	return "unrecognised value";
}

static const char *thp_defrag_meaning(const char *v)
{
	if (!*v)
		return "unknown";
	if (!strcmp(v, "always"))
		return "a page fault stalls for direct compaction to get a huge page (latency spikes)";
	if (!strcmp(v, "defer"))
		return "background compaction only; the fault takes small pages now";
	if (!strcmp(v, "defer+madvise"))
		return "direct compaction for MADV_HUGEPAGE memory, background for the rest";
	if (!strcmp(v, "madvise"))
		return "direct compaction only for MADV_HUGEPAGE memory";
	if (!strcmp(v, "never"))
		return "no compaction for transparent huge pages";
	return "unrecognised value";
}

static const char *hypervisor_meaning(int v)
{
	if (v > 0)
		return "virtual machine: nodes, distances and PCI locality are what the hypervisor "
		       "presents and may not match the physical host";
	if (v == 0)
		return "bare metal (no hypervisor CPU flag)";
	return "unknown (no flags line in /proc/cpuinfo)";
}

/* A knob of a feature the kernel was built without: no value, not a fault. */
#define NOT_AVAILABLE "not available in this kernel"

static void knob_int(struct nn_out *o, const char *key, const char *label, int v, bool absent,
		     const char *meaning)
{
	nn_open_object(o, key);
	nn_printf(o, "  %-30s ", label);
	nn_print_opt_int(o, PRINT_ANY, "value", "%-14lld ", v, absent ? "-" : "unknown");
	nn_print_bool(o, PRINT_JSON, "available", NULL, !absent);
	nn_print_string(o, PRINT_ANY, "meaning", "%s\n", meaning);
	nn_close_object(o);
}

static void knob_str(struct nn_out *o, const char *key, const char *label, const char *v,
		     bool absent, const char *meaning)
{
	nn_open_object(o, key);
	nn_printf(o, "  %-30s ", label);
	if (absent)
		nn_printf(o, "%-14s ", "-");
	nn_print_string(o, absent ? PRINT_JSON : PRINT_ANY, "value", "%-14s ", *v ? v : NULL);
	nn_print_bool(o, PRINT_JSON, "available", NULL, !absent);
	nn_print_string(o, PRINT_ANY, "meaning", "%s\n", absent ?
			NOT_AVAILABLE " (CONFIG_TRANSPARENT_HUGEPAGE=n)" : meaning);
	nn_close_object(o);
}

static void print_knobs(struct nn_out *o, const struct nn_knobs *k)
{
	char zr[256];

	nn_printf(o, "\nKernel NUMA knobs:\n");
	bool no_nb = k->absent & NN_KNOB_NUMA_BALANCING, no_zr = k->absent & NN_KNOB_ZONE_RECLAIM;
	bool no_thp = k->absent & NN_KNOB_THP;

	nn_open_object(o, "knobs");
	knob_int(o, "numa_balancing", "kernel.numa_balancing", k->numa_balancing, no_nb,
		 no_nb ? NOT_AVAILABLE " (CONFIG_NUMA_BALANCING=n): nothing migrates pages "
		 "behind the data plane" : balancing_meaning(k->numa_balancing));
	if (no_zr)
		snprintf(zr, sizeof(zr), NOT_AVAILABLE " (CONFIG_NUMA=n)");
	else
		zone_reclaim_meaning(k->zone_reclaim_mode, zr, sizeof(zr));
	knob_int(o, "zone_reclaim_mode", "vm.zone_reclaim_mode", k->zone_reclaim_mode, no_zr, zr);
	knob_str(o, "thp_enabled", "transparent_hugepage/enabled", k->thp_enabled, no_thp,
		 thp_enabled_meaning(k->thp_enabled));
	knob_str(o, "thp_defrag", "transparent_hugepage/defrag", k->thp_defrag, no_thp,
		 thp_defrag_meaning(k->thp_defrag));
	nn_open_object(o, "hypervisor");
	nn_printf(o, "  %-30s %-14s ", "hypervisor (cpuinfo flag)",
		  k->hypervisor > 0 ? "yes" : k->hypervisor == 0 ? "no" : "unknown");
	if (k->hypervisor < 0)
		nn_print_null(o, PRINT_JSON, "value", NULL);
	else
		nn_print_bool(o, PRINT_JSON, "value", NULL, k->hypervisor > 0);
	nn_print_string(o, PRINT_ANY, "meaning", "%s\n", hypervisor_meaning(k->hypervisor));
	nn_close_object(o);
	nn_close_object(o);
}

/* One isolation source: its cpulist ("none" when empty), JSON null and
 * "unknown" when its file was missing or unreadable. */
static void isol_source(struct nn_out *o, const char *key, const char *label, bool known,
			const struct nn_cpuset *set)
{
	char *list = known ? nn_cpuset_format_list(set) : NULL;

	nn_printf(o, "  %-30s ", label);
	if (!known) {
		nn_print_null(o, PRINT_JSON, key, NULL);
		nn_printf(o, "unknown (file missing or unreadable)");
	} else
		nn_print_string(o, PRINT_JSON, key, NULL, list ? list : "");
	if (known)
		nn_printf(o, "%s", list && *list ? list : "none");
	free(list);
}

static int print_isolation(struct nn_out *o, const struct nn_topo *t)
{
	const struct nn_isolation *is = &t->isol;
	struct nn_cpuset all = NN_CPUSET_INIT;
	char flags[64];
	int err = nn_topo_isolated_cpus(t, &all);

	if (err)
		return err;
	nn_printf(o, "\nIsolated CPUs (no queue IRQ or housekeeping role there unless "
		  "--cpus names them):\n");
	nn_open_object(o, "isolation");
	nn_printf(o, "  %-30s ", "all sources (online)");
	nn_print_cpuset(o, PRINT_JSON, "cpus", NULL, &all);
	if (nn_cpuset_empty(&all))
		nn_printf(o, "none\n");
	else
		nn_print_cpuset(o, PRINT_FP, NULL, "%s\n", &all);
	isol_source(o, "isolated", "cpu/isolated", is->isolated_known, &is->isolated);
	nn_printf(o, "\n");
	isol_source(o, "nohz_full", "cpu/nohz_full", is->nohz_full_known, &is->nohz_full);
	nn_printf(o, "\n");
	isol_source(o, "isolcpus", "isolcpus= (/proc/cmdline)", is->cmdline_known, &is->isolcpus);
	nn_isol_flags_format(is->isolcpus_flags, flags, sizeof(flags));
	nn_open_array(o, "isolcpus_flags");
	if (is->isolcpus_flags & NN_ISOL_NOHZ)
		nn_print_string(o, PRINT_JSON, NULL, NULL, "nohz");
	if (is->isolcpus_flags & NN_ISOL_DOMAIN)
		nn_print_string(o, PRINT_JSON, NULL, NULL, "domain");
	if (is->isolcpus_flags & NN_ISOL_MANAGED_IRQ)
		nn_print_string(o, PRINT_JSON, NULL, NULL, "managed_irq");
	nn_close_array(o);
	nn_printf(o, "%s%s\n", flags[0] ? ", flags " : "", flags);
	nn_close_object(o);
	nn_cpuset_free(&all);
	return 0;
}

/* "4.6 GiB" for the text table; JSON keeps kB. */
static void human_kb(long kb, char *buf, size_t size)
{
	if (kb < 0)
		snprintf(buf, size, "unknown");
	else if (kb >= 1024L * 1024)
		snprintf(buf, size, "%.1f GiB", (double)kb / (1024.0 * 1024.0));
	else
		snprintf(buf, size, "%.1f MiB", (double)kb / 1024.0);
}

static void hp_size(unsigned long kb, char *buf, size_t size)
{
	if (kb >= 1024 * 1024 && kb % (1024 * 1024) == 0)
		snprintf(buf, size, "%luG", kb / (1024 * 1024));
	else if (kb >= 1024 && kb % 1024 == 0)
		snprintf(buf, size, "%luM", kb / 1024);
	else
		snprintf(buf, size, "%luk", kb);
}

static int list_width(const struct nn_cpuset *s, int min)
{
	char *str = nn_cpuset_format_list(s);
	int w = str ? (int)strlen(str) : 1;

	free(str);
	return w > min ? w : min;
}

static void print_nodes(struct nn_out *o, const struct nn_topo *t)
{
	size_t i, j;
	int w = 4;
	char fmt[16], a[32], b[32];

	for (i = 0; i < t->nnodes; i++)
		w = list_width(&t->nodes[i].cpus, w);
	snprintf(fmt, sizeof(fmt), "%%-%ds  ", w);
	nn_printf(o, "\n%-5s %-*s  %-5s %10s %10s  %s\n", "NODE", w, "CPUS", "NCPU",
		  "MEM TOTAL", "MEM FREE", "HUGEPAGES total/free/surplus");
	nn_open_array(o, "nodes");
	for (i = 0; i < t->nnodes; i++) {
		const struct nn_node *n = &t->nodes[i];
		bool no_cpus = nn_cpuset_empty(&n->cpus) && nn_cpuset_empty(&n->offline) &&
			       !n->cpus_unknown;

		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_ANY, "id", "%-5lld ", n->id);
		if (n->cpus_unknown) {
			nn_printf(o, "%-*s  ", w, "unknown");
			nn_print_null(o, PRINT_JSON, "cpus", NULL);
		} else {
			bool none = nn_cpuset_empty(&n->cpus);

			if (none)
				nn_printf(o, "%-*s  ", w, no_cpus ? "(none)" : "(offline)");
			nn_print_cpuset(o, none ? PRINT_JSON : PRINT_ANY, "cpus", (const char *)fmt, &n->cpus);
		}
		/* Offline CPUs of its cpulist: not counted, not used, shown apart. */
		if (n->cpus_unknown)
			nn_print_null(o, PRINT_JSON, "offline_cpus", NULL);
		else
			nn_print_cpuset(o, PRINT_JSON, "offline_cpus", NULL, &n->offline);
		if (n->cpus_unknown)
			nn_print_null(o, PRINT_ANY, "ncpus", "%5s ");
		else
			nn_print_uint(o, PRINT_ANY, "ncpus", "%5llu ", nn_cpuset_count(&n->cpus));
		human_kb(n->mem_total_kb, a, sizeof(a));
		human_kb(n->mem_free_kb, b, sizeof(b));
		nn_printf(o, "%10s %10s  ", a, b);
		nn_print_opt_int(o, PRINT_JSON, "mem_total_kb", NULL, n->mem_total_kb, NULL);
		nn_print_opt_int(o, PRINT_JSON, "mem_free_kb", NULL, n->mem_free_kb, NULL);
		nn_print_bool(o, PRINT_JSON, "memory_only", NULL, no_cpus);
		nn_print_bool(o, PRINT_JSON, "cpu_only", NULL, n->mem_total_kb == 0);
		if (n->ndistances) {
			nn_open_array(o, "distances");
			for (j = 0; j < n->ndistances; j++)
				nn_print_opt_int(o, PRINT_JSON, NULL, NULL, n->distances[j], NULL);
			nn_close_array(o);
		} else {
			nn_print_null(o, PRINT_JSON, "distances", NULL);
		}
		nn_open_array(o, "hugepages");
		for (j = 0; j < n->nhugepages; j++) {
			const struct nn_hugepages *h = &n->hugepages[j];

			hp_size(h->size_kb, a, sizeof(a));
			nn_printf(o, "%s%s ", j ? ", " : "", a);
			nn_open_object(o, NULL);
			nn_print_uint(o, PRINT_JSON, "size_kb", NULL, h->size_kb);
			nn_print_opt_int(o, PRINT_ANY, "total", "%lld/", h->total, "?");
			nn_print_opt_int(o, PRINT_ANY, "free", "%lld/", h->free, "?");
			nn_print_opt_int(o, PRINT_ANY, "surplus", "%lld", h->surplus, "?");
			nn_close_object(o);
		}
		if (!n->nhugepages)
			nn_printf(o, "-");
		nn_close_array(o);
		if (!nn_cpuset_empty(&n->offline)) {
			char *off = nn_cpuset_format_list(&n->offline);

			nn_printf(o, "  (offline CPUs %s)", off ? off : "?");
			free(off);
		}
		if (no_cpus)
			nn_printf(o, "  (memory-only node)");
		else if (n->mem_total_kb == 0)
			nn_printf(o, "  (CPU-only node: its CPUs allocate remotely)");
		nn_printf(o, "\n");
		nn_close_object(o);
	}
	nn_close_array(o);

	/* The distance matrix, rows as the kernel gives them. */
	nn_printf(o, "\nNode distances (10 = local):\n%-8s", "");
	for (i = 0; i < t->nnodes; i++)
		nn_printf(o, " %4d", t->nodes[i].id);
	nn_printf(o, "\n");
	for (i = 0; i < t->nnodes; i++) {
		const struct nn_node *n = &t->nodes[i];

		nn_printf(o, "node %-3d", n->id);
		for (j = 0; j < t->nnodes; j++) {
			if (j < n->ndistances && n->distances[j] >= 0)
				nn_printf(o, " %4d", n->distances[j]);
			else
				nn_printf(o, " %4s", "?");
		}
		nn_printf(o, "\n");
	}
}

static void print_cpus(struct nn_out *o, const struct nn_topo *t, bool table)
{
	int ts = PRINT_JSON | (table ? PRINT_FP : 0);
	int ws = 8;
	char fs[16], fl[16];
	size_t i;

	for (i = 0; i < t->ncpus; i++) {
		ws = list_width(&t->cpus[i].siblings, ws);
	}
	snprintf(fs, sizeof(fs), "%%-%ds  ", ws);
	snprintf(fl, sizeof(fl), "%%s\n");
	if (table)
		nn_printf(o, "\n%-5s %-7s %-7s %-5s %-7s %-*s  %s\n", "CPU", "NODE", "PACKAGE",
			  "DIE", "CORE", ws, "SIBLINGS", "L3 SHARED WITH");
	nn_open_array(o, "cpus");
	for (i = 0; i < t->ncpus; i++) {
		const struct nn_cpu *c = &t->cpus[i];

		nn_open_object(o, NULL);
		nn_print_int(o, ts, "id", "%-5lld ", c->id);
		nn_print_opt_int(o, ts, "node", "%-7lld ", c->node, "?");
		nn_print_opt_int(o, ts, "package", "%-7lld ", c->package, "?");
		nn_print_opt_int(o, ts, "die", "%-5lld ", c->die, "?");
		nn_print_opt_int(o, ts, "core", "%-7lld ", c->core, "?");
		if (nn_cpuset_empty(&c->siblings)) {
			nn_print_null(o, PRINT_JSON, "siblings", NULL);
			if (table)
				nn_printf(o, "%-*s  ", ws, "?");
		} else {
			nn_print_cpuset(o, ts, "siblings", (const char *)fs, &c->siblings);
		}
		nn_print_opt_int(o, PRINT_JSON, "l3", NULL, c->l3, NULL);
		if (nn_cpuset_empty(&c->l3_cpus)) {
			nn_print_null(o, PRINT_JSON, "l3_cpus", NULL);
			if (table)
				nn_printf(o, "?\n");
		} else {
			nn_print_cpuset(o, ts, "l3_cpus", (const char *)fl, &c->l3_cpus);
		}
		nn_close_object(o);
	}
	nn_close_array(o);
}

int nn_topo_print(struct nn_out *o, const struct nn_topo *t, bool cpus)
{
	nn_print_string(o, PRINT_ANY, "cpu_model", "CPU model:   %s\n",
			t->knobs.cpu_model[0] ? t->knobs.cpu_model : NULL);
	nn_print_cpuset(o, PRINT_ANY, "online", "Online CPUs: %s", &t->online);
	nn_printf(o, " (%u CPUs, %zu NUMA node%s)%s\n", nn_cpuset_count(&t->online), t->nnodes,
		  t->nnodes == 1 ? "" : "s", t->knobs.hypervisor > 0 ? ", virtual machine" : "");
	if (!t->offline_known)
		nn_print_null(o, PRINT_JSON, "offline_cpus", NULL);
	else
		nn_print_cpuset(o, PRINT_JSON, "offline_cpus", NULL, &t->offline);
	if (t->offline_known && !nn_cpuset_empty(&t->offline)) {
		char *off = nn_cpuset_format_list(&t->offline);

		nn_printf(o, "Offline:     %s (present, not online)\n", off ? off : "?");
		free(off);
	}
	print_nodes(o, t);
	print_cpus(o, t, cpus);
	print_knobs(o, &t->knobs);
	return print_isolation(o, t);
}
