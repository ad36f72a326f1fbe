// SPDX-License-Identifier: GPL-2.0-or-later
/* metrics.c - Prometheus textfile metrics: one table of families, two renderers */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


#include "nicnuma/service/metrics.h"
#include "nicnuma/obs/obs.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/discover/irq_place.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/act/apply.h"
#include "nicnuma/service/desired_io.h"
#include "nicnuma/discover/coexist.h"
#include "hugepages/hugepages.h"
#include "nicnuma/discover/pcie.h"
#include "nicnuma/service/persist.h"
#include "nicnuma/service/watch.h"
#include "boot/boot_print.h"

/* ---- the families ------------------------------------------------------- */

enum mscope { M_HOST, M_NIC, M_POOL, M_PLAN, M_BOOT, M_PORT };

/* A per-node hugepage pool as a sample's item. */
struct mpool {
	int node;
	const struct nn_hugepages *hp;
};

struct mfamily {
	const char *name;
	const char *type;	/* "gauge" or "counter" */
	enum mscope scope;
	const char *help;
	/* true with *v when @item (NULL, a struct nn_metrics_nic, a struct
	 * mpool) has a sample of this family; false leaves it out */
	bool (*get)(const struct nn_metrics *m, const void *item, double *v);
};

#define NIC(item) ((const struct nn_metrics_nic *)(item))
#define POOL(item) ((const struct mpool *)(item))

static bool nic_node_known(const struct nn_metrics *m, const void *it, double *v)
{
	*v = NIC(it)->nic->numa_node >= 0;
	return true;
}

static bool nic_node(const struct nn_metrics *m, const void *it, double *v)
{
	*v = NIC(it)->nic->numa_node;
	return NIC(it)->nic->numa_node >= 0;
}

static bool nic_queue_irqs(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)NIC(it)->queue_irqs;
	return true;
}

static bool nic_unknown_role(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)NIC(it)->unknown_role;
	return true;
}

static bool nic_off_plan(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)NIC(it)->off_plan;
	return NIC(it)->off_plan >= 0;
}

static bool nic_off_node(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)NIC(it)->off_node;
	return NIC(it)->off_node >= 0;
}

static bool nic_spill(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)NIC(it)->spill;
	return NIC(it)->spill >= 0;
}

static bool nic_drift(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)NIC(it)->drift;
	return NIC(it)->drift >= 0;
}

/* PCIe: the NIC function's own link files and the verdict over its path. */
static const struct nn_pcie *PCIE(const void *it)
{
	return NIC(it)->nic->pcie;
}

static bool gts(int mts, double *v)
{
	*v = mts / 1000.0;
	return mts > 0;
}

static bool pcie_width(const struct nn_metrics *m, const void *it, double *v)
{
	*v = PCIE(it) ? PCIE(it)->fn_cur_width : -1;
	return *v > 0;
}

static bool pcie_max_width(const struct nn_metrics *m, const void *it, double *v)
{
	*v = PCIE(it) ? PCIE(it)->fn_max_width : -1;
	return *v > 0;
}

static bool pcie_speed(const struct nn_metrics *m, const void *it, double *v)
{
	return PCIE(it) && gts(PCIE(it)->fn_cur_mts, v);
}

static bool pcie_max_speed(const struct nn_metrics *m, const void *it, double *v)
{
	return PCIE(it) && gts(PCIE(it)->fn_max_mts, v);
}

/* Judged: the verdict is ok or bad (unknown links or ports: no sample). */
static bool pcie_judged(const struct nn_pcie *p)
{
	return p && (p->v.state == NN_PCIE_OK || p->v.state == NN_PCIE_BAD);
}

static bool pcie_healthy(const struct nn_metrics *m, const void *it, double *v)
{
	*v = pcie_judged(PCIE(it)) && PCIE(it)->v.state == NN_PCIE_OK;
	return pcie_judged(PCIE(it));
}

static bool pcie_downtrained(const struct nn_metrics *m, const void *it, double *v)
{
	const struct nn_pcie *p = PCIE(it);

	*v = p && p->v.down >= 0;
	return p && p->v.state != NN_PCIE_LINK_UNKNOWN;
}

static bool plan_info(const struct nn_metrics *m, const void *it, double *v)
{
	*v = 1;
	return true;
}

static bool pool_total(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)POOL(it)->hp->total;
	return POOL(it)->hp->total >= 0;
}

static bool pool_free(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)POOL(it)->hp->free;
	return POOL(it)->hp->free >= 0;
}

static bool irqb_running(const struct nn_metrics *m, const void *it, double *v)
{
	*v = m->irqb_running;
	return true;
}

static bool irqb_fenced(const struct nn_metrics *m, const void *it, double *v)
{
	*v = m->irqb_fenced;
	return m->checked;
}

static bool drift_total(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)m->drift_total;
	return m->checked;
}

static bool claims_count(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)m->claims;
	return true;
}

static bool claimed_cpus(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)m->claimed_cpus;
	return true;
}

static bool claim_spills(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)m->claim_spills;
	return m->checked;
}

static bool irqs_on_claimed(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)m->on_claimed;
	return m->checked;
}

static bool watch_running(const struct nn_metrics *m, const void *it, double *v)
{
	*v = m->watch.running;
	return true;
}

static bool watch_time(const struct nn_metrics *m, const void *it, double *v)
{
	*v = m->watch.last_time;
	return m->watch.has_time;
}

static bool watch_ok(const struct nn_metrics *m, const void *it, double *v)
{
	*v = m->watch.last_ok;
	return m->watch.has_result;
}

static bool desired_nics(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)m->desired_nics;
	return m->has_desired;
}

static bool desired_present(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)m->desired_nics_present;
	return m->has_desired;
}

static bool watch_events(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)m->watch.events;
	return m->watch.events >= 0;
}

static bool watch_applies(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)m->watch.applies;
	return m->watch.applies >= 0;
}

static bool watch_written(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)m->watch.values_written;
	return m->watch.values_written >= 0;
}

/* The observed work of a NIC (metrics --traffic), NULL when none. */
static const struct nn_obs_nic *obs_nic(const struct nn_metrics *m, const void *it)
{
	for (size_t i = 0; m->traffic && i < m->traffic->nnics; i++)
		if (m->traffic->nics[i].nic == NIC(it)->nic)
			return &m->traffic->nics[i];
	return NULL;
}

static bool traffic_window(const struct nn_metrics *m, const void *it, double *v)
{
	*v = m->traffic ? m->traffic->interval : 0;
	return m->traffic != NULL;
}

static bool nic_irq_rate(const struct nn_metrics *m, const void *it, double *v)
{
	const struct nn_obs_nic *n = obs_nic(m, it);

	*v = n ? n->irq_rate : 0;
	return n != NULL;
}

static bool nic_softirq_rate(const struct nn_metrics *m, const void *it, double *v)
{
	const struct nn_obs_nic *n = obs_nic(m, it);

	*v = n ? n->softirq_rate : 0;
	return n != NULL;
}

static bool nic_irq_local(const struct nn_metrics *m, const void *it, double *v)
{
	const struct nn_obs_nic *n = obs_nic(m, it);

	*v = n ? n->irq_local_ratio : -1;
	return n && n->irq_local_ratio >= 0;
}

static bool nic_softirq_local(const struct nn_metrics *m, const void *it, double *v)
{
	const struct nn_obs_nic *n = obs_nic(m, it);

	*v = n ? n->softirq_local_ratio : -1;
	return n && n->softirq_local_ratio >= 0;
}

static bool nic_napi_local(const struct nn_metrics *m, const void *it, double *v)
{
	const struct nn_obs_nic *n = obs_nic(m, it);

	*v = n ? n->napi_local_ratio : -1;
	return n && n->napi_local_ratio >= 0;
}

static bool reboot_pending(const struct nn_metrics *m, const void *it, double *v)
{
	*v = m->reboot_pending;
	return m->boot_known;
}

static bool boot_drift(const struct nn_metrics *m, const void *it, double *v)
{
	*v = (double)m->boot_drift;
	return m->boot_known;
}

static bool boot_arg_status(const struct nn_metrics *m, const void *it, double *v)
{
	*v = 1;
	return it != NULL;
}

static bool port_bound(const struct nn_metrics *m, const void *it, double *v)
{
	(void)m;
	*v = ((const struct nn_metrics_port *)it)->bound;
	return true;
}

/* Order here is the order in the file. A new family is one row (and a
 * getter); NIC rows get the labels name, pci, driver. */
static const struct mfamily families[] = {
	{ "nicnuma_plan_info", "gauge", M_PLAN,
	  "What the check families compare against: source=\"desired\" (enabled: "
	  "/etc/nicnuma/nicnuma.conf), \"file\" (--plan), \"default\" (a fresh plan), "
	  "\"none\"", plan_info },
	{ "nicnuma_nic_numa_node_known", "gauge", M_NIC,
	  "1 when the kernel knows the NIC's NUMA node, 0 when numa_node is -1", nic_node_known },
	{ "nicnuma_nic_numa_node", "gauge", M_NIC,
	  "NUMA node of the NIC's PCI device (no sample when unknown)", nic_node },
	{ "nicnuma_nic_queue_irqs", "gauge", M_NIC,
	  "Queue IRQs of the NIC", nic_queue_irqs },
	{ "nicnuma_nic_irqs_unknown_role", "gauge", M_NIC,
	  "IRQs of the NIC that neither netdev netlink nor the driver name table gives a role "
	  "(planned like queue IRQs, never onto housekeeping)", nic_unknown_role },
	{ "nicnuma_nic_queue_irqs_off_node", "gauge", M_NIC,
	  "Queue IRQs that may run on a CPU outside the NIC's NUMA node where the plan does not put "
	  "them (effective affinity; without a plan every one off the node)", nic_off_node },
	{ "nicnuma_nic_queue_irqs_spilled", "gauge", M_NIC,
	  "Queue IRQs on a near node where the plan spills them (the NIC's node has too few cores, "
	  "or claims hold them): not misplaced", nic_spill },
	{ "nicnuma_nic_queue_irqs_off_plan", "gauge", M_NIC,
	  "Queue IRQs whose affinity differs from the plan", nic_off_plan },
	{ "nicnuma_nic_drift_values", "gauge", M_NIC,
	  "Values (IRQ affinity, XPS, channels) of the NIC that differ from the plan", nic_drift },
	{ "nicnuma_nic_pcie_link_width", "gauge", M_NIC,
	  "PCIe lanes the NIC's link trained to (current_link_width)", pcie_width },
	{ "nicnuma_nic_pcie_link_max_width", "gauge", M_NIC,
	  "PCIe lanes the NIC function supports (max_link_width)", pcie_max_width },
	{ "nicnuma_nic_pcie_link_speed_gts", "gauge", M_NIC,
	  "PCIe speed the NIC's link trained to, GT/s (current_link_speed)", pcie_speed },
	{ "nicnuma_nic_pcie_link_max_speed_gts", "gauge", M_NIC,
	  "PCIe speed the NIC function supports, GT/s (max_link_speed)", pcie_max_speed },
	{ "nicnuma_nic_pcie_link_downtrained", "gauge", M_NIC,
	  "1 when a PCIe link between the NIC and its root port trained below what both ends support",
	  pcie_downtrained },
	{ "nicnuma_nic_pcie_link_healthy", "gauge", M_NIC,
	  "1 when every PCIe link up to the root port is trained and carries the ports' speed, "
	  "0 when not (nicnuma nics says why; no sample when unknown)", pcie_healthy },
	/* not _total: promtool keeps that suffix for counters */
	{ "nicnuma_traffic_window_seconds", "gauge", M_HOST,
	  "Length of the observation the nic traffic families come from (metrics --traffic)",
	  traffic_window },
	{ "nicnuma_nic_irqs_per_second", "gauge", M_NIC,
	  "The NIC's IRQs observed per second (metrics --traffic)", nic_irq_rate },
	{ "nicnuma_nic_softirqs_per_second", "gauge", M_NIC,
	  "NET_RX/NET_TX softirqs attributed to the NIC per second (by its interrupts per CPU)",
	  nic_softirq_rate },
	{ "nicnuma_nic_irq_local_ratio", "gauge", M_NIC,
	  "Share of the NIC's observed interrupts taken by CPUs of its NUMA node "
	  "(no sample without interrupts or a known node)", nic_irq_local },
	{ "nicnuma_nic_softirq_local_ratio", "gauge", M_NIC,
	  "Share of the NIC's observed softirq work done on its NUMA node", nic_softirq_local },
	{ "nicnuma_nic_napi_local_ratio", "gauge", M_NIC,
	  "Share of the NIC's threaded-NAPI CPU time on its NUMA node (no sample without busy "
	  "NAPI threads)", nic_napi_local },
	{ "nicnuma_node_hugepages", "gauge", M_POOL,
	  "Hugepages reserved in the node's pool (nr_hugepages)", pool_total },
	{ "nicnuma_node_hugepages_free", "gauge", M_POOL,
	  "Free hugepages in the node's pool", pool_free },
	{ "nicnuma_irqbalance_running", "gauge", M_HOST,
	  "1 when the system's irqbalance daemon runs", irqb_running },
	{ "nicnuma_irqbalance_fenced", "gauge", M_HOST,
	  "1 when the running irqbalance uses nicnuma's ban policy script", irqb_fenced },
	{ "nicnuma_drift_values", "gauge", M_HOST,
	  "Values that differ from the plan, an unfenced irqbalance included", drift_total },
	{ "nicnuma_claims", "gauge", M_HOST,
	  "Run-time CPU claims now (claim records and cpuset partitions, docs/claims.md)", claims_count },
	{ "nicnuma_claimed_cpus", "gauge", M_HOST,
	  "CPUs no NIC work may use now because a workload claimed them", claimed_cpus },
	{ "nicnuma_claim_spills", "gauge", M_HOST,
	  "NICs whose node the claims left without a CPU for NIC work (spilled by distance)",
	  claim_spills },
	{ "nicnuma_irqs_on_claimed_cpus", "gauge", M_HOST,
	  "Planned NIC IRQs whose CPUs now touch a claimed CPU (drift)", irqs_on_claimed },
	{ "nicnuma_watch_running", "gauge", M_HOST,
	  "1 when nicnuma watch runs (it holds /run/nicnuma/watch.lock)", watch_running },
	{ "nicnuma_watch_last_apply_timestamp_seconds", "gauge", M_HOST,
	  "When nicnuma watch last acted, seconds since the epoch", watch_time },
	{ "nicnuma_watch_last_apply_success", "gauge", M_HOST,
	  "1 when nicnuma watch's last action did not fail (applied, unchanged, or skipped: "
	  "no desired NIC on the host, see nicnuma_desired_nics_present)", watch_ok },
	{ "nicnuma_watch_events_total", "counter", M_HOST,
	  "Link and device events nicnuma watch saw since it started", watch_events },
	{ "nicnuma_watch_applies_total", "counter", M_HOST,
	  "Applies nicnuma watch made since it started", watch_applies },
	{ "nicnuma_watch_values_written_total", "counter", M_HOST,
	  "Values nicnuma watch wrote since it started", watch_written },
	{ "nicnuma_desired_nics", "gauge", M_HOST,
	  "NICs in the desired state (/etc/nicnuma/nicnuma.conf; no sample unless enabled)",
	  desired_nics },
	{ "nicnuma_desired_nics_present", "gauge", M_HOST,
	  "Desired NICs the host has now (by PCI address); the others are not kept", desired_present },
	{ "nicnuma_reboot_pending", "gauge", M_HOST,
	  "1 when a kernel argument nicnuma configured (or took out) waits for a reboot: it wrote the "
	  "bootloader's configuration during this boot and the running kernel differs", reboot_pending },
	{ "nicnuma_boot_args_drift", "gauge", M_HOST,
	  "Kernel arguments nicnuma configured that are in drift: configured but not in /proc/cmdline "
	  "after a reboot (the bootloader or a later drop-in ignored it), or no longer configured",
	  boot_drift },
	{ "nicnuma_boot_arg_status", "gauge", M_BOOT,
	  "Each kernel argument nicnuma configured, with its status (in_effect, pending_reboot, drift, "
	  "not_configured, not_planned, removed_pending_reboot, removed_still_running): always 1",
	  boot_arg_status },
	{ "nicnuma_port_bound", "gauge", M_PORT,
	  "Each DPDK port of the plan (the desired state's dpdk_port): 1 on its planned driver "
	  "(vfio-pci), 0 in drift (another driver or none: refused or not yet bound by the watcher "
	  "at boot); labels pci, node (\"\" unknown), driver (now, \"\" none), planned", port_bound },
};

#define NFAMILIES (sizeof(families) / sizeof(families[0]))

/* ---- walking the samples ------------------------------------------------- */

struct mlabel {
	const char *name;
	const char *value;
};

typedef void (*emit_fn)(void *arg, const struct mfamily *f, bool first,
			const struct mlabel *l, size_t nl, double v);

static void walk(const struct nn_metrics *m, emit_fn emit, void *arg)
{
	const struct nn_topo *t = &m->host->topo;

	for (size_t fi = 0; fi < NFAMILIES; fi++) {
		const struct mfamily *f = &families[fi];
		bool first = true;
		double v;

		if (f->scope == M_HOST && f->get(m, NULL, &v)) {
			emit(arg, f, first, NULL, 0, v);
			continue;
		}
		if (f->scope == M_PLAN && f->get(m, NULL, &v)) {
			struct mlabel l = { "source", nn_metrics_plan_source_name(m->plan_source) };

			emit(arg, f, first, &l, 1, v);
			continue;
		}
		for (size_t i = 0; f->scope == M_NIC && i < m->nnics; i++) {
			const struct nn_nic *n = m->nics[i].nic;
			struct mlabel l[3] = {
				{ "name", n->name },
				{ "pci", n->pci ? n->pci : "" },
				{ "driver", n->driver ? n->driver : "" },
			};

			if (f->get(m, &m->nics[i], &v)) {
				emit(arg, f, first, l, 3, v);
				first = false;
			}
		}
		for (size_t i = 0; f->scope == M_BOOT && i < m->nboot; i++) {
			struct mlabel l[2] = { { "name", m->boot[i].name },
					       { "status", nn_boot_state_name(m->boot[i].state) } };

			if (f->get(m, &m->boot[i], &v)) {
				emit(arg, f, first, l, 2, v);
				first = false;
			}
		}
		for (size_t i = 0; f->scope == M_PORT && i < m->nports; i++) {
			const struct nn_metrics_port *p = &m->ports[i];
			char node[16] = "";
			struct mlabel l[4] = { { "pci", p->pci }, { "node", node }, { "driver", p->driver },
					       { "planned", p->planned } };

			if (p->node >= 0)
				snprintf(node, sizeof(node), "%d", p->node);
			if (f->get(m, p, &v)) {
				emit(arg, f, first, l, 4, v);
				first = false;
			}
		}
		for (size_t i = 0; f->scope == M_POOL && i < t->nnodes; i++) {
			const struct nn_node *nd = &t->nodes[i];

			for (size_t j = 0; j < nd->nhugepages; j++) {
				struct mpool p = { nd->id, &nd->hugepages[j] };
				char node[16], size[32];
				struct mlabel l[2] = { { "node", node }, { "size", size } };

				snprintf(node, sizeof(node), "%d", nd->id);
				if (nn_hp_format_size(nd->hugepages[j].size_kb, size, sizeof(size)) < 0)
					snprintf(size, sizeof(size), "%lukB", nd->hugepages[j].size_kb);
				if (f->get(m, &p, &v)) {
					emit(arg, f, first, l, 2, v);
					first = false;
				}
			}
		}
	}
}

/* ---- text (exposition format 0.0.4) -------------------------------------- */

void nn_metrics_escape_label(struct nn_sb *sb, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\')
			nn_sb_puts(sb, "\\\\");
		else if (*p == '"')
			nn_sb_puts(sb, "\\\"");
		else if (*p == '\n')
			nn_sb_puts(sb, "\\n");
		else if (*p < 0x20 || *p >= 0x7f)
			/* the text \xNN: its backslash escaped as the format wants */
			nn_sb_printf(sb, "\\\\x%02x", *p);
		else
			nn_sb_putc(sb, (char)*p);
	}
}

/* Integers as integers; timestamps keep their milliseconds. */
static void put_value(struct nn_sb *sb, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		nn_sb_printf(sb, "%lld", (long long)v);
	else
		nn_sb_printf(sb, "%.15g", v);
}

static void emit_text(void *arg, const struct mfamily *f, bool first,
		      const struct mlabel *l, size_t nl, double v)
{
	struct nn_sb *sb = arg;

	if (first)
		nn_sb_printf(sb, "# HELP %s %s\n# TYPE %s %s\n", f->name, f->help, f->name, f->type);
	nn_sb_puts(sb, f->name);
	for (size_t i = 0; i < nl; i++) {
		nn_sb_printf(sb, "%s%s=\"", i ? "," : "{", l[i].name);
		nn_metrics_escape_label(sb, l[i].value);
		nn_sb_putc(sb, '"');
	}
	nn_sb_puts(sb, nl ? "} " : " ");
	put_value(sb, v);
	nn_sb_putc(sb, '\n');
}

int nn_metrics_render(const struct nn_metrics *m, struct nn_sb *sb)
{
	walk(m, emit_text, sb);
	return nn_sb_error(sb);
}

/* ---- JSON ----------------------------------------------------------------- */

static void emit_json(void *arg, const struct mfamily *f, bool first,
		      const struct mlabel *l, size_t nl, double v)
{
	struct nn_out *o = arg;

	nn_open_object(o, NULL);
	nn_print_string(o, PRINT_JSON, "name", NULL, f->name);
	nn_print_string(o, PRINT_JSON, "type", NULL, f->type);
	nn_open_object(o, "labels");
	for (size_t i = 0; i < nl; i++)
		nn_print_string(o, PRINT_JSON, l[i].name, NULL, l[i].value);
	nn_close_object(o);
	if (v == floor(v) && fabs(v) < 1e15)
		nn_print_int(o, PRINT_JSON, "value", NULL, (long long)v);
	else
		nn_print_double(o, PRINT_JSON, "value", NULL, v);
	nn_close_object(o);
}

void nn_metrics_print_json(struct nn_ctx *ctx, const struct nn_metrics *m)
{
	nn_open_array(&ctx->out, "samples");
	walk(m, emit_json, &ctx->out);
	nn_close_array(&ctx->out);
}

/* ---- collecting ------------------------------------------------------------ */

/* Queue IRQs off @n's node against @plan (NULL: none, every one off the
 * node counts) and those the plan spills to a near node: irq_place.h's
 * verdict, as nics, report and check give it. -1 both: node unknown. */
static void count_places(const struct nn_topo *t, const struct nn_nic *n, const struct nn_plan *plan,
			 struct nn_metrics_nic *mn)
{
	struct nn_place_count c;

	mn->off_node = mn->spill = -1;
	if (nn_irq_place_home(t, n) < 0)
		return;
	nn_nic_place_count(t, n, plan ? nn_plan_irq_cpus : NULL, plan, &c);
	mn->off_node = c.off;
	mn->spill = c.spill;
}

static void count_check(struct nn_metrics *m, const struct nn_check_report *rep)
{
	for (size_t i = 0; i < m->nnics; i++) {
		m->nics[i].off_plan = 0;
		m->nics[i].drift = 0;
	}
	for (size_t v = 0; v < rep->nvals; v++) {
		const struct nn_apply_val *val = &rep->vals[v];

		if (val->status != NN_VAL_DRIFT || !val->nic)
			continue;
		for (size_t i = 0; i < m->nnics; i++) {
			if (strcmp(m->nics[i].nic->name, val->nic))
				continue;
			m->nics[i].drift++;
			if (val->kind == NN_VAL_IRQ && val->queue >= 0)
				m->nics[i].off_plan++;
		}
	}
	m->drift_total = (long)rep->ndrift;
	m->irqb_fenced = rep->irqb.pid > 0 && rep->irqb_fenced;
}

/* The check's ports: bound is its in_place (status "unchanged"). */
static int copy_ports(struct nn_metrics *m, const struct nn_plan *plan, const struct nn_check_report *rep)
{
	if (!rep->nports)
		return 0;
	m->ports = calloc(rep->nports, sizeof(*m->ports));
	if (!m->ports)
		return -ENOMEM;
	for (size_t i = 0; i < rep->nports; i++) {
		struct nn_metrics_port *p = &m->ports[i];
		const struct nn_apply_port *c = &rep->ports[i];

		snprintf(p->pci, sizeof(p->pci), "%s", c->pci);
		snprintf(p->driver, sizeof(p->driver), "%s", c->before);
		snprintf(p->planned, sizeof(p->planned), "%s", c->driver);
		p->bound = !strcmp(c->status, "unchanged");
		p->node = i < plan->nports ? plan->ports[i].node : -1;
	}
	m->nports = rep->nports;
	return 0;
}

/* "2024-05-01T12:00:00[.123](Z|+02:00)" -> seconds since the epoch. */
static int parse_rfc3339(const char *s, double *out)
{
	struct tm tm = { 0 };
	const char *p = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	double frac = 0;
	long off = 0;

	if (!p)
		return -EINVAL;
	if (*p == '.') {
		char *end;

		frac = strtod(p, &end);
		p = end;
	}
	if (*p == '+' || *p == '-') {
		int hh, mm;

		if (sscanf(p + 1, "%2d:%2d", &hh, &mm) != 2 || strlen(p) != 6)
			return -EINVAL;
		off = (hh * 60L + mm) * 60L * (*p == '-' ? -1 : 1);
	} else if (strcmp(p, "Z") && strcmp(p, "z")) {
		return -EINVAL;
	}
	*out = (double)(timegm(&tm) - off) + frac;
	return 0;
}

void nn_metrics_watch_from_state(const struct nn_watch_state *st, struct nn_metrics_watch *w)
{
	memset(w, 0, sizeof(*w));
	w->has_time = st->time && !parse_rfc3339(st->time, &w->last_time);
	w->has_result = st->result != NULL;
	w->last_ok = nn_watch_result_ok(st->result);
	w->events = st->events;
	w->applies = st->applies;
	w->values_written = st->values_written;
}

/* Running is the watcher's lock, as status says; what it did last is its
 * state file, kept after it stopped. */
static void read_watch(struct nn_ctx *ctx, struct nn_metrics_watch *w)
{
	struct nn_watch_state st;
	int holder, err;

	memset(w, 0, sizeof(*w));
	w->events = w->applies = w->values_written = -1;
	err = nn_watch_state_read(ctx, &st);
	if (err == -EINVAL)
		nn_warn(ctx, NN_WATCH_RUNDIR_JSON, "not a JSON object: watcher state ignored");
	else if (err && err != -ENOENT)
		nn_warn(ctx, NN_WATCH_RUNDIR_JSON, "cannot read: %s", nn_read_strerror(err));
	if (!err)
		nn_metrics_watch_from_state(&st, w);
	nn_watch_state_free(&st);
	err = nn_watch_lock_held(ctx, &holder);
	if (err < 0 && err != -ENOENT)
		nn_warn(ctx, NN_WATCH_RUNDIR "/watch.lock", "cannot look at it: %s", strerror(-err));
	w->running = err > 0;
}

const char *nn_metrics_plan_source_name(enum nn_metrics_plan_source s)
{
	switch (s) {
	case NN_METRICS_PLAN_FILE: return "file";
	case NN_METRICS_PLAN_DESIRED: return "desired";
	case NN_METRICS_PLAN_DEFAULT: return "default";
	case NN_METRICS_PLAN_APPLIED: return "applied";
	default: return "none";
	}
}

/* The kernel arguments of the boot record and their states; unreadable
 * boot facts leave the families out (a warning). */
static void read_boot(struct nn_ctx *ctx, struct nn_metrics *m)
{
	struct nn_boot_host b;
	struct nn_boot_arg *args = NULL;
	char why[400];
	size_t n = 0;

	if (nn_boot_host_read(ctx, &b, true)) {
		nn_warn(ctx, NULL, "metrics: the kernel's boot facts are unreadable: no boot families");
		return;
	}
	if (b.has_record && nn_boot_args_from_record(&b.record, &args, &n))
		goto out;
	if (nn_boot_assess(&b, args, n, &m->boot, &m->nboot, &m->reboot_pending, why, sizeof(why))) {
		nn_warn(ctx, "/proc/cmdline", "metrics: boot arguments: %s", why);
		goto out;
	}
	m->boot_known = true;
	for (size_t i = 0; i < m->nboot; i++)
		m->boot_drift += nn_boot_state_drift(m->boot[i].state);
out:
	nn_boot_args_free(args, n);
	nn_boot_host_free(&b);
}

int nn_metrics_collect(struct nn_ctx *ctx, const struct nn_host *host, const struct nn_plan *plan,
		       enum nn_metrics_plan_source source, struct nn_metrics *m)
{
	struct nn_check_report rep = { 0 };
	size_t n = 0;
	int err;

	memset(m, 0, sizeof(*m));
	m->host = host;
	m->irqb_running = host->irqbalance.running;
	m->nics = calloc(host->nnics ? host->nnics : 1, sizeof(*m->nics));
	if (!m->nics)
		return -ENOMEM;
	for (size_t i = 0; i < host->nnics; i++) {
		const struct nn_nic *nic = &host->nics[i];
		struct nn_metrics_nic *mn = &m->nics[n];

		if (nic->is_virtual)
			continue;
		mn->nic = nic;
		for (size_t q = 0; q < nic->nirqs; q++)
			mn->queue_irqs += nic->irqs[q].queue >= 0;
		mn->unknown_role = (long)nn_nic_irqs_unknown_role(nic);
		count_places(&host->topo, nic, plan, mn);
		mn->off_plan = mn->drift = -1;
		n++;
	}
	m->nnics = n;
	for (size_t i = 0; i < host->claims.n; i++)
		m->claims += host->claims.items[i].live;
	m->claimed_cpus = (long)nn_cpuset_count(nn_host_claimed_cpus(host));
	if (plan) {
		rep.irqb.pid = -1;
		err = nn_check_run(ctx, plan, &rep);
		if (err < 0)
			goto fail;
		count_check(m, &rep);
		err = copy_ports(m, plan, &rep);
		if (err)
			goto fail;
		m->claim_spills = plan->claim_spills;
		m->on_claimed = (long)rep.on_claimed;
		m->checked = true;
		m->plan_source = source;
	}
	read_watch(ctx, &m->watch);
	read_boot(ctx, m);
	nn_check_report_free(&rep);
	return 0;
fail:
	nn_check_report_free(&rep);
	nn_metrics_free(m);
	return err;
}

void nn_metrics_free(struct nn_metrics *m)
{
	free(m->nics);
	m->nics = NULL;
	m->nnics = 0;
	free(m->boot);
	m->boot = NULL;
	m->nboot = 0;
	free(m->ports);
	m->ports = NULL;
	m->nports = 0;
}

int nn_metrics_write_file(const char *path, const char *text, size_t len)
{
	return nn_write_atomic_path(path, text, len, 0644);
}

int nn_metrics_desired_plan(struct nn_ctx *ctx, struct nn_host *host, struct nn_plan *plan,
			    struct nn_metrics *m)
{
	struct nn_desired d;
	const char **missing = NULL;
	size_t nmissing = 0, i;
	int err = nn_desired_read(ctx, NULL, &d);

	if (err == -ENOENT) {
		nn_warn(ctx, NN_DESIRED_PATH, "enabled, but there is no desired state: metrics "
			"without the plan check");
		return 1;
	}
	if (err)
		return err;
	err = nn_desired_claims(ctx, &d, host);
	/* the ports' facts (node) for their labels; unreadable ones stay unknown */
	if (!err && d.nports && nn_host_ports_read(ctx, host, d.ports, d.nports) == -ENOMEM)
		err = -ENOMEM;
	if (!err)
		err = nn_desired_make_plan(&d, host, plan, &missing, &nmissing);
	if (!err || err == -ENOENT) {
		m->has_desired = true;
		m->desired_nics = (long)d.nnics;
		m->desired_nics_present = (long)(d.nnics - nmissing);
	}
	for (i = 0; i < nmissing; i++)
		nn_warn(ctx, NN_DESIRED_PATH, "desired NIC %s is not on the host", missing[i]);
	free(missing);
	nn_desired_free(&d);
	if (err == -ENOENT)
		return 1;
	if (err)
		nn_err(ctx, "metrics: cannot plan the desired state: %s", strerror(-err));
	return err;
}

int nn_metrics_output(struct nn_ctx *ctx, const struct nn_metrics *m, const char *output, struct nn_sb *sb)
{
	int err;

	if (output || !ctx->out.json) {
		err = nn_metrics_render(m, sb);
		if (err < 0) {
			nn_err(ctx, "metrics: %s", strerror(-err));
			return err;
		}
	}
	if (output) {
		err = nn_metrics_write_file(output, nn_sb_str(sb), sb->len);
		if (err < 0) {
			if (err == -EISDIR)
				nn_err(ctx, "metrics: %s is a directory, not a file nicnuma "
				       "replaces: remove it", output);
			else
				nn_err(ctx, "metrics: cannot write %s: %s", output, nn_output_strerror(err));
			return err;
		}
	}
	return 0;
}

void nn_metrics_print(struct nn_ctx *ctx, const struct nn_metrics *m, enum nn_metrics_plan_source source,
		      const char *output, const char *text)
{
	nn_open_object(&ctx->out, "metrics");
	if (output)
		nn_print_string(&ctx->out, PRINT_ANY, "output", "wrote %s\n", output);
	else
		nn_print_null(&ctx->out, PRINT_JSON, "output", NULL);
	nn_print_string(&ctx->out, PRINT_JSON, "plan_source", NULL, nn_metrics_plan_source_name(source));
	if (ctx->out.json)
		nn_metrics_print_json(ctx, m);
	else if (!output)
		/* already escaped for the format: printable ASCII and newlines */
		nn_print_block(&ctx->out, text);
	nn_close_object(&ctx->out);
}
