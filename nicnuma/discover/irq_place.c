// SPDX-License-Identifier: GPL-2.0-or-later
/* irq_place.c - local, planned spill or misplaced: the one verdict (irq_place.h) */
#include <stddef.h>
#include <string.h>

#include "nicnuma/discover/irq_place.h"

const struct nn_cpuset *nn_irq_where(const struct nn_irq *q)
{
	if (q->has_effective && !nn_cpuset_empty(&q->effective))
		return &q->effective;
	if (q->has_affinity && !nn_cpuset_empty(&q->affinity))
		return &q->affinity;
	return NULL;
}

static bool node_planned(const struct nn_topo *t, const struct nn_cpuset *planned, int node)
{
	int c;

	for (c = nn_cpuset_first(planned); c >= 0; c = nn_cpuset_next(planned, c))
		if (nn_topo_cpu_node(t, c) == node)
			return true;
	return false;
}

enum nn_irq_place nn_irq_place(const struct nn_topo *t, int home, const struct nn_cpuset *where,
			       const struct nn_cpuset *planned)
{
	enum nn_irq_place p = NN_PLACE_LOCAL;
	int c;

	if (home < 0 || !where || nn_cpuset_empty(where))
		return NN_PLACE_UNKNOWN;
	for (c = nn_cpuset_first(where); c >= 0; c = nn_cpuset_next(where, c)) {
		int node = nn_topo_cpu_node(t, c);

		if (node < 0 || node == home)
			continue;
		/* the plan chose that node for this IRQ (its own node had no room) */
		if (planned && node_planned(t, planned, node))
			p = NN_PLACE_SPILL;
		else
			return NN_PLACE_OFF;
	}
	return p;
}

const char *nn_irq_place_name(enum nn_irq_place p)
{
	switch (p) {
	case NN_PLACE_LOCAL: return "local";
	case NN_PLACE_SPILL: return "spill";
	case NN_PLACE_OFF: return "off";
	default: return NULL;
	}
}

int nn_irq_place_home(const struct nn_topo *t, const struct nn_nic *nic)
{
	bool assumed;
	int home = nn_nic_home_node(t, nic, &assumed);

	return assumed ? -1 : home;
}

void nn_nic_place_count(const struct nn_topo *t, const struct nn_nic *nic, nn_planned_cpus_fn fn,
			const void *arg, struct nn_place_count *c)
{
	int home = nn_irq_place_home(t, nic);
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < nic->nirqs; i++) {
		const struct nn_irq *q = &nic->irqs[i];

		if (q->queue < 0)
			continue;
		switch (nn_irq_place(t, home, nn_irq_where(q), fn ? fn(arg, q->irq) : NULL)) {
		case NN_PLACE_LOCAL: c->local++; break;
		case NN_PLACE_SPILL: c->spill++; break;
		case NN_PLACE_OFF: c->off++; break;
		default: c->unknown++; break;
		}
	}
}

void nn_host_place_count(const struct nn_host *h, nn_planned_cpus_fn fn, const void *arg,
			 struct nn_place_count *c)
{
	struct nn_place_count one;
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < h->nnics; i++) {
		if (h->nics[i].is_virtual || nn_irq_place_home(&h->topo, &h->nics[i]) < 0)
			continue;
		nn_nic_place_count(&h->topo, &h->nics[i], fn, arg, &one);
		c->local += one.local;
		c->spill += one.spill;
		c->off += one.off;
		c->unknown += one.unknown;
	}
}
