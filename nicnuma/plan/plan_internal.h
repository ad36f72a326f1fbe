/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan_internal.h - helpers shared by plan.c, plan_json.c and plan_eal.c
 * (node and distance questions are topo.h's: nn_topo_*) */
#ifndef NICNUMA_PLAN_INTERNAL_H
#define NICNUMA_PLAN_INTERNAL_H

#include "nicnuma/plan/plan.h"

/* Appends a formatted message to a plan's list: 0 or -ENOMEM. */
int nn__plan_addf(char ***v, size_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* What the user can change: a warning (exit 1). */
#define nn__plan_add_warning(plan, ...) nn__plan_addf(&(plan)->warnings, &(plan)->nwarnings, __VA_ARGS__)
/* A host fact no option changes: a note, exit 0 in every command. */
#define nn__plan_add_note(plan, ...) nn__plan_addf(&(plan)->notes, &(plan)->nnotes, __VA_ARGS__)

#endif
