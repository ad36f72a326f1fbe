// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/plan/plan_moves.h"
#include "nicnuma/core/fileio.h"

static const struct nn_plan_irq *find_irq(const struct nn_plan *p, int irq)
{
	size_t i;

	for (i = 0; i < p->nirqs; i++)
		if (p->irqs[i].irq == irq)
			return &p->irqs[i];
	return NULL;
}

static int nic_node(const struct nn_plan *p, const char *nic)
{
	size_t i;

	for (i = 0; nic && i < p->nnics; i++)
		if (p->nics[i].nic && !strcmp(p->nics[i].nic, nic))
			return p->nics[i].numa_node;
	return -1;
}

int nn_plan_irq_moves(const struct nn_plan *before, const struct nn_plan *after,
		      struct nn_irq_move **moves, size_t *n)
{
	size_t i, cap = 0;

	*moves = NULL;
	*n = 0;
	for (i = 0; i < after->nirqs; i++) {
		const struct nn_plan_irq *a = &after->irqs[i], *b = find_irq(before, a->irq);
		struct nn_irq_move *m;

		if (b && nn_cpuset_equal(&b->cpus, &a->cpus))
			continue;
		if (NN_GROW(*moves, *n, cap)) {
			free(*moves);
			*moves = NULL;
			*n = 0;
			return -ENOMEM;
		}
		m = &(*moves)[(*n)++];
		m->before = b;
		m->after = a;
		m->nic_node = nic_node(after, a->nic);
		m->spill = m->nic_node >= 0 && a->node >= 0 && a->node != m->nic_node;
	}
	return 0;
}
