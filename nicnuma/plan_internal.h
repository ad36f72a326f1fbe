/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan_internal.h - helpers shared by plan.c, plan_json.c and plan_eal.c */
#ifndef NICNUMA_PLAN_INTERNAL_H
#define NICNUMA_PLAN_INTERNAL_H

#include "plan.h"

int nn__plan_node_index(const struct nn_topo *t, int id);
/* Distance @a -> @b from the snapshot; -1 unknown. */
int nn__plan_distance(const struct nn_topo *t, int a, int b);
/* All node ids by distance from @from (itself first, unknown last, ties by id). */
void nn__plan_nodes_by_distance(const struct nn_topo *t, int from, int *ids);
int nn__plan_add_warning(struct nn_plan *plan, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
