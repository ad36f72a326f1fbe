/* SPDX-License-Identifier: GPL-2.0-or-later */
/* port.h - a PCI function as a DPDK port: what it is, what drives it, its
 * IOMMU group, and whether vfio-pci can take it (docs/ports.md)
 *
 * ports/ is a domain library beside irq/, hugepages/ and boot/ (rank 3):
 * port_read.c reads through the fs root (the function's class, driver,
 * driver_override, iommu_group and the group's members with their netdevs,
 * /sys/class/iommu, the vfio-pci driver and vfio's no-IOMMU mode, the
 * routes and addresses of /proc/net), port_check.c decides (pure). The
 * node is discovery's (nn_device_numa_node), as whether a netdev is up.
 */
#ifndef NICNUMA_PORTS_PORT_H
#define NICNUMA_PORTS_PORT_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;

#define NN_PCI_CLASS_NETWORK 0x02	/* the base class of /sys/bus/pci/devices/X/class */
#define NN_PCI_CLASS_BRIDGE 0x06

/* A netdev of a function, and whether this host uses it: up with an
 * address or a route (a management path). */
struct nn_port_netdev {
	char name[16];
	int up;			/* 1, 0, -1 unknown (discovery fills it) */
	char use[96];		/* "route 10.0.0.0/24", "address 2001:db8::1": "" none found */
};

/* One PCI function: the port itself or another member of its group. */
struct nn_port_fn {
	char pci[16];			/* "0000:af:00.0" */
	long pci_class;			/* the 24-bit class; -1 unknown */
	char driver[32];		/* "" none bound */
	struct nn_port_netdev *netdevs;
	size_t nnetdevs;
};

struct nn_port {
	struct nn_port_fn fn;
	bool present;			/* /sys/bus/pci/devices/PCI is there */
	int node;			/* -1 unknown (discovery fills it) */
	int iommu_group;		/* -1: none */
	struct nn_port_fn *members;	/* the group's other functions */
	size_t nmembers;
};

/* The IOMMU and vfio as the host has them. */
struct nn_vfio_host {
	int iommus;			/* entries of /sys/class/iommu; -1 unreadable */
	char iommu_name[32];		/* the first by name ("dmar0", "ivhd0"); "" none */
	bool vfio_pci_bound;		/* /sys/bus/pci/drivers/vfio-pci: the driver is loaded */
	bool vfio_pci_module;		/* /sys/module/vfio_pci, or a module file of the running kernel */
	int noiommu;			/* vfio's enable_unsafe_noiommu_mode: 1, 0, -1 not there */
	bool vfio_module;		/* /sys/module/vfio: vfio loaded (or built in) */
};

/* Reads @pci (a full PCI address) into @p through the fs root: not present
 * is no error (p->present false). 0, -EINVAL for a name that is no PCI
 * address, -ENOMEM. */
int nn_port_read(struct nn_ctx *ctx, const char *pci, struct nn_port *p);
void nn_port_free(struct nn_port *p);
/* The driver @pci is on now, from its driver link: "" none (or unreadable). */
void nn_port_driver_now(struct nn_ctx *ctx, const char *pci, char *out, size_t len);
/* The PCI functions on vfio-pci now (/sys/bus/pci/drivers/vfio-pci), sorted:
 * *@pci malloc'd (free each and the array); none is no error. 0 or -ENOMEM. */
int nn_vfio_bound_list(struct nn_ctx *ctx, char ***pci, size_t *n);
int nn_vfio_host_read(struct nn_ctx *ctx, struct nn_vfio_host *v);
/* Fills each netdev's use (route or global address found in /proc/net/route,
 * ipv6_route and if_inet6) of @p's function and members. 0 or -errno of a
 * file that is there but unreadable (a missing one is nothing found). */
int nn_port_uses_read(struct nn_ctx *ctx, struct nn_port *p);

/* Pure: "0000:af:00.0" (domain, bus, device.function, lower-case hex). */
bool nn_port_pci_valid(const char *s);

/* What the planner asks of a port going to vfio-pci. */
struct nn_port_ask {
	bool noiommu;		/* --noiommu: vfio's unsafe no-IOMMU mode allowed */
	bool force;		/* --force: a netdev this host uses may go */
	char *const *ports;	/* every port of the plan: group members among them go too */
	size_t nports;
};

/* Pure: 0 when @p may be bound to vfio-pci, else -errno with @why naming
 * what was found: -ENODEV not there, -ENOTSUP not a network function,
 * -EBUSY a group member on another driver or a netdev in use (without
 * force), -ENXIO no IOMMU (without noiommu), -ENOPKG no vfio-pci. @note
 * gets a warning where it is allowed but unsafe (""). */
int nn_port_verdict(const struct nn_port *p, const struct nn_vfio_host *v, const struct nn_port_ask *ask,
		    char *why, size_t whylen, char *note, size_t notelen);

#endif
