/* SPDX-License-Identifier: GPL-2.0-or-later */
/* apply_internal.h - what apply.c, check.c and report.c share */
#ifndef NICNUMA_ACT_APPLY_INTERNAL_H
#define NICNUMA_ACT_APPLY_INTERNAL_H

#include "nicnuma/act/apply.h"

/* /sys/devices/system/cpu/online; empty (and a warning) when unreadable. */
void nn_apply_read_online(struct nn_ctx *ctx, struct nn_cpuset *online);
/* One value per plan entry with its current state (apply.c). */
int nn_apply_collect(struct nn_ctx *ctx, const struct nn_plan *plan, const struct nn_cpuset *online,
		     const struct nn_host *host, bool check, struct nn_apply_val **out, size_t *nout);
void nn_apply_vals_free(struct nn_apply_val *vals, size_t n);

#endif
