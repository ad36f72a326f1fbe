/* SPDX-License-Identifier: GPL-2.0-or-later */
/* apply_internal.h - what apply.c (executing), apply_collect.c (collecting), check.c and report.c share */
#ifndef NICNUMA_ACT_APPLY_INTERNAL_H
#define NICNUMA_ACT_APPLY_INTERNAL_H

#include "nicnuma/act/apply.h"
#include "nicnuma/core/fsroot.h"

/* /sys/devices/system/cpu/online; empty (and a warning) when unreadable. */
void nn_apply_read_online(struct nn_ctx *ctx, struct nn_cpuset *online);
/* One value per plan entry with its current state (apply_collect.c). */
int nn_apply_collect(struct nn_ctx *ctx, const struct nn_plan *plan, const struct nn_cpuset *online,
		     const struct nn_host *host, bool check, struct nn_apply_val **out, size_t *nout);
void nn_apply_vals_free(struct nn_apply_val *vals, size_t n);

/* Directory views for the value loops: /proc/irq, and the queues directory
 * of one NIC at a time (values come grouped by NIC). Through them the kernel
 * walks two path components instead of four to ten and a symlink, a fifth of
 * apply's time on a large host. A view takes the same absolute paths as the
 * root it stands for; each value's reads and writes are given its view. */
struct nn_apply_views {
	const struct nn_root *base;
	struct nn_root irq, nic;
	char nic_dir[320];
};

void nn_apply_views_open(const struct nn_root *base, struct nn_apply_views *w);
void nn_apply_views_close(struct nn_apply_views *w);
/* The root to read and write @v through: its view (the root itself for other kinds). */
const struct nn_root *nn_apply_views_for(struct nn_apply_views *w, const struct nn_apply_val *v);

/* apply.c: --dpdk-ports: each port's driver and override now, status
 * "unchanged" where it is on its planned driver, else "pending" (and
 * *@pending). *@ports malloc'd, one per plan->ports; 0 or -ENOMEM. */
int nn_apply_ports_read(struct nn_ctx *ctx, const struct nn_plan *plan, struct nn_apply_port **ports,
			size_t *n, bool *pending);

#endif
