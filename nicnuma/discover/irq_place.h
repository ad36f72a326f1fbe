/* SPDX-License-Identifier: GPL-2.0-or-later */
/* irq_place.h - the one verdict on where a queue IRQ sits: on its NIC's node,
 * spilled off it where the plan puts it (by distance, or a claim), or off the
 * node against the plan. nics, report, check and metrics all ask here. */
#ifndef NICNUMA_IRQ_PLACE_H
#define NICNUMA_IRQ_PLACE_H

#include "nicnuma/core/cpuset.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/discover/nic.h"
#include "nicnuma/discover/topo.h"

enum nn_irq_place {
	NN_PLACE_UNKNOWN = -1,	/* the NIC's node or the IRQ's CPUs unknown */
	NN_PLACE_LOCAL = 0,	/* every CPU on the NIC's node */
	NN_PLACE_SPILL,		/* off the node, on a node the plan gives this IRQ */
	NN_PLACE_OFF,		/* off the node where no plan puts it: misplaced */
};

/* The planned CPUs of IRQ @irq (NULL: the plan leaves it alone); @arg is the plan. */
typedef const struct nn_cpuset *(*nn_planned_cpus_fn)(const void *arg, int irq);

/* Where @q may fire: its effective affinity where the kernel shows one, else
 * the requested mask; NULL when neither is known. */
const struct nn_cpuset *nn_irq_where(const struct nn_irq *q);

/* The verdict for CPUs @where of an IRQ whose NIC sits on node @home (-1
 * unknown), against the plan's CPUs for it (@planned, NULL: none). A CPU off
 * @home is a planned spill only when the plan itself puts the IRQ on that
 * CPU's node; without a plan every such CPU is off. Pure. */
enum nn_irq_place nn_irq_place(const struct nn_topo *t, int home, const struct nn_cpuset *where,
			       const struct nn_cpuset *planned);
/* "local", "spill", "off"; NULL for unknown. */
const char *nn_irq_place_name(enum nn_irq_place p);

struct nn_place_count {
	long local, spill, off, unknown;
};

/* The node @nic's queue IRQs are judged against: nn_nic_home_node, except
 * that a node only assumed (a one-node host that does not say) is -1. */
int nn_irq_place_home(const struct nn_topo *t, const struct nn_nic *nic);
/* The verdict of each of @nic's queue IRQs, counted; @fn (NULL: no plan)
 * gives the plan's CPUs. */
void nn_nic_place_count(const struct nn_topo *t, const struct nn_nic *nic, nn_planned_cpus_fn fn,
			const void *arg, struct nn_place_count *c);
/* The same over every NIC of @h whose node is known (virtual ones aside). */
void nn_host_place_count(const struct nn_host *h, nn_planned_cpus_fn fn, const void *arg,
			 struct nn_place_count *c);

#endif
