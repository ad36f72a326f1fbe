// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_ports.c - --dpdk-ports: each port's driver, planned with its reason (pure)
 *
 * The checks (ports/port_check.c) ran on the host's facts before the plan
 * was made (nn_plan_get refuses there, naming what it found); here each
 * port gets vfio-pci and a reason saying what was found: the node, the
 * IOMMU group and its other members, the IOMMU or no-IOMMU mode. A port the
 * host facts lack (not read) is planned with its node and group unknown.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/strbuf.h"
#include "plan_state.h"

static const struct nn_port *host_port(const struct nn_host *h, const char *pci)
{
	size_t i;

	for (i = 0; i < h->nports; i++)
		if (!strcmp(h->ports[i].fn.pci, pci))
			return &h->ports[i];
	return NULL;
}

static char *port_reason(const struct nn_port *p, const struct nn_vfio_host *v, bool noiommu)
{
	struct nn_sb sb = NN_SB_INIT;
	char *out;
	size_t i;

	nn_sb_printf(&sb, "a DPDK port: vfio-pci hands the function to userspace");
	if (!p) {
		nn_sb_printf(&sb, "; its facts were not read");
		return nn_sb_steal(&sb, &out) ? NULL : out;
	}
	if (noiommu && (v->iommus <= 0 || p->iommu_group < 0))
		nn_sb_printf(&sb, " in vfio's unsafe no-IOMMU mode (--noiommu: no IOMMU, no DMA isolation)");
	else
		nn_sb_printf(&sb, " behind the IOMMU (%s)", v->iommu_name[0] ? v->iommu_name : "on");
	if (p->iommu_group >= 0) {
		nn_sb_printf(&sb, "; IOMMU group %d", p->iommu_group);
		if (!p->nmembers)
			nn_sb_printf(&sb, " holds it alone");
		for (i = 0; i < p->nmembers; i++)
			nn_sb_printf(&sb, "%s %s (%s)", i ? "," : " with", p->members[i].pci,
				     p->members[i].driver[0] ? p->members[i].driver : "no driver");
	}
	if (p->fn.driver[0])
		nn_sb_printf(&sb, "; now on %s", p->fn.driver);
	return nn_sb_steal(&sb, &out) ? NULL : out;
}

int nn__plan_ports(struct plan_state *st)
{
	const struct nn_plan_opts *o = st->opts;
	struct nn_plan *plan = st->plan;
	size_t i;

	if (!o->ndpdk_ports)
		return 0;
	plan->ports = calloc(o->ndpdk_ports, sizeof(*plan->ports));
	if (!plan->ports)
		return -ENOMEM;
	for (i = 0; i < o->ndpdk_ports; i++) {
		const struct nn_port *hp = host_port(st->host, o->dpdk_ports[i]);
		struct nn_plan_port *pp = &plan->ports[plan->nports];
		size_t k;

		for (k = 0; k < plan->nports; k++)
			if (!strcmp(plan->ports[k].pci, o->dpdk_ports[i]))
				break;
		if (k < plan->nports)
			continue;	/* named twice */
		plan->nports++;
		snprintf(pp->pci, sizeof(pp->pci), "%s", o->dpdk_ports[i]);
		snprintf(pp->driver, sizeof(pp->driver), "vfio-pci");
		pp->node = hp ? hp->node : -1;
		pp->iommu_group = hp ? hp->iommu_group : -1;
		if (hp) {
			snprintf(pp->driver_now, sizeof(pp->driver_now), "%s", hp->fn.driver);
			if (hp->fn.nnetdevs)
				snprintf(pp->ifname, sizeof(pp->ifname), "%s", hp->fn.netdevs[0].name);
		}
		pp->noiommu = o->noiommu && hp && (st->host->vfio.iommus <= 0 || hp->iommu_group < 0);
		pp->reason = port_reason(hp, &st->host->vfio, o->noiommu);
		if (!pp->reason)
			return -ENOMEM;
	}
	return 0;
}
