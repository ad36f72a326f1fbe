/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan_moves.h - what changes between two plans of one host: the IRQs a
 * new input (a claim, for `claim --dry-run`) would move. Pure. */
#ifndef NICNUMA_PLAN_PLAN_MOVES_H
#define NICNUMA_PLAN_PLAN_MOVES_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/plan/plan.h"

struct nn_irq_move {
	const struct nn_plan_irq *before;	/* NULL: the IRQ was not planned before */
	const struct nn_plan_irq *after;
	int nic_node;				/* the NIC's node; -1 unknown */
	bool spill;				/* after: off the NIC's (known) node */
};

/* The IRQs of @after whose planned CPUs differ from @before's for the same
 * IRQ (or that @before did not plan), in @after's order, pointing into
 * both plans. 0 or -ENOMEM; *@moves is malloc'd (NULL when none). */
int nn_plan_irq_moves(const struct nn_plan *before, const struct nn_plan *after,
		      struct nn_irq_move **moves, size_t *n);

#endif
