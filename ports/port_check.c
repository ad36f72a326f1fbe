// SPDX-License-Identifier: GPL-2.0-or-later
/* port_check.c - whether a port may go to vfio-pci, and why not (pure)
 *
 * The checks dpdk-devbind.py leaves to the first DPDK start ("VFIO group is
 * not viable"), made before anything is written: the function is there and
 * a network function; vfio-pci can be loaded; an IOMMU is on, else
 * --noiommu asks for vfio's unsafe no-IOMMU mode (no isolation from the
 * device's DMA: warned); every other member of the IOMMU group is unbound,
 * on vfio-pci, a bridge, or another port of the plan (vfio opens a group
 * whole); no netdev of the port carries a route or a global address of
 * this host (the management path: binding it locks the operator out),
 * unless --force.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicnuma/core/strbuf.h"
#include "ports/port.h"

#define NOIOMMU_PARAM "/sys/module/vfio/parameters/enable_unsafe_noiommu_mode"

static bool planned(const struct nn_port_ask *ask, const char *pci)
{
	size_t i;

	for (i = 0; i < ask->nports; i++)
		if (!strcmp(ask->ports[i], pci))
			return true;
	return false;
}

static bool member_ok(const struct nn_port_fn *m, const struct nn_port_ask *ask)
{
	return !m->driver[0] || !strcmp(m->driver, "vfio-pci") || planned(ask, m->pci) ||
	       (m->pci_class >= 0 && (m->pci_class >> 16) == NN_PCI_CLASS_BRIDGE);
}

int nn_port_verdict(const struct nn_port *p, const struct nn_vfio_host *v, const struct nn_port_ask *ask,
		    char *why, size_t whylen, char *note, size_t notelen)
{
	size_t i;

	*why = *note = '\0';
	if (!p->present) {
		snprintf(why, whylen, "%s: no such PCI function (/sys/bus/pci/devices/%s)", p->fn.pci, p->fn.pci);
		return -ENODEV;
	}
	if (p->fn.pci_class < 0 || (p->fn.pci_class >> 16) != NN_PCI_CLASS_NETWORK) {
		snprintf(why, whylen, "%s: not a network function (PCI class %s%06lx, network is 0x02xxxx)",
			 p->fn.pci, p->fn.pci_class < 0 ? "unknown: " : "0x",
			 p->fn.pci_class < 0 ? 0L : p->fn.pci_class);
		return -ENOTSUP;
	}
	if (!v->vfio_pci_module) {
		snprintf(why, whylen, "%s: vfio-pci cannot be loaded (no /sys/bus/pci/drivers/vfio-pci, "
			 "/sys/module/vfio_pci or vfio-pci.ko in the running kernel's modules.dep)", p->fn.pci);
		return -ENOPKG;
	}
	if (v->iommus <= 0 || p->iommu_group < 0) {
		if (!ask->noiommu) {
			snprintf(why, whylen, "%s: no IOMMU is on (%s%s): vfio-pci needs one; boot with it "
				 "(--boot-args auto plans intel_iommu=on iommu=pt) or ask for vfio's unsafe "
				 "no-IOMMU mode with --noiommu", p->fn.pci,
				 v->iommus <= 0 ? "/sys/class/iommu is empty" : "the function has no iommu_group",
				 v->iommus < 0 ? " or missing" : "");
			return -ENXIO;
		}
		/* vfio-pci takes a function without a group only in this mode,
		 * which the operator turns on: nicnuma never enables an unsafe mode */
		if (v->noiommu != 1) {
			snprintf(why, whylen, "%s: --noiommu: %s", p->fn.pci, v->noiommu == 0 ?
				 "vfio's no-IOMMU mode is off (" NOIOMMU_PARAM " is N): turn it on first "
				 "(echo 1 > " NOIOMMU_PARAM "); nicnuma does not enable an unsafe mode itself" :
				 v->vfio_module ? "this kernel's vfio has no no-IOMMU mode (no " NOIOMMU_PARAM
				 ": built without CONFIG_VFIO_NOIOMMU); boot with an IOMMU instead" :
				 "vfio is not loaded, so its no-IOMMU mode is off: load it with the mode on first "
				 "(modprobe vfio enable_unsafe_noiommu_mode=1; a kernel built without "
				 "CONFIG_VFIO_NOIOMMU has none)");
			return -EOPNOTSUPP;
		}
		snprintf(note, notelen, "%s: vfio-pci in no-IOMMU mode (--noiommu): the device's DMA can reach "
			 "all of memory, no isolation", p->fn.pci);
	} else {
		struct nn_sb sb = NN_SB_INIT;

		for (i = 0; i < p->nmembers; i++) {
			const struct nn_port_fn *m = &p->members[i];

			if (member_ok(m, ask))
				continue;
			if (!sb.len)
				nn_sb_printf(&sb, "%s: IOMMU group %d is not viable: vfio-pci takes a group whole, and",
					     p->fn.pci, p->iommu_group);
			nn_sb_printf(&sb, " %s is on %s", m->pci, m->driver);
		}
		if (sb.len) {
			nn_sb_puts(&sb, " (unbind it, or name it in --dpdk-ports too)");
			if (nn_sb_error(&sb))
				snprintf(why, whylen, "%s: IOMMU group %d is not viable (no memory to name its members)",
					 p->fn.pci, p->iommu_group);
			else
				snprintf(why, whylen, "%s", nn_sb_str(&sb));
			nn_sb_free(&sb);
			return -EBUSY;
		}
		nn_sb_free(&sb);
	}
	for (i = 0; i < p->fn.nnetdevs; i++) {
		const struct nn_port_netdev *n = &p->fn.netdevs[i];

		if (!n->use[0] || n->up == 0)
			continue;
		if (!ask->force) {
			snprintf(why, whylen, "%s: its netdev %s is in use by this host (%s%s): binding it may cut "
				 "the management path; --force-port to bind it anyway", p->fn.pci, n->name, n->use,
				 n->up > 0 ? ", up" : "");
			return -EBUSY;
		}
		snprintf(note, notelen, "%s: its netdev %s is in use (%s); bound anyway (--force-port)", p->fn.pci,
			 n->name, n->use);
	}
	return 0;
}
