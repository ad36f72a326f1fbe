/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan_internal.h - helpers shared by plan.c, plan_json.c and plan_eal.c
 * (node and distance questions are topo.h's: nn_topo_*) */
#ifndef NICNUMA_PLAN_INTERNAL_H
#define NICNUMA_PLAN_INTERNAL_H

#include "nicnuma/plan/plan.h"

int nn__plan_add_warning(struct nn_plan *plan, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
