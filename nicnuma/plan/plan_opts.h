/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan_opts.h - planning options shared by `nicnuma plan` and `nicnuma script` */
#ifndef NICNUMA_PLAN_PLAN_OPTS_H
#define NICNUMA_PLAN_PLAN_OPTS_H

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/opts.h"
#include "nicnuma/discover/host.h"
#include "plan.h"

/* Long-only option values start at 256 so they never collide with short ones. */
enum {
	NN_OPT_NICS = 256,
	NN_OPT_CPUS,
	NN_OPT_RESERVE,
	NN_OPT_POLICY,
	NN_OPT_CHANNELS,
	NN_OPT_IRQBALANCE,
	NN_OPT_HUGEPAGES,
	NN_OPT_NO_XPS,
	NN_OPT_PLAN,
	NN_OPT_STATE_DIR,
	NN_OPT_RSS,
	NN_OPT_RPS,
	NN_OPT_NAPI_DEFER,
	NN_OPT_GRO_FLUSH,
	NN_OPT_IRQ_SUSPEND,
	NN_OPT_NAPI_THREADED,
	NN_OPT_PROFILE,
	NN_OPT_BUSY_POLL,
	NN_OPT_BOOT_ARGS,
	NN_OPT_ISOLATE,
	NN_OPT_DPDK_PORTS,
	NN_OPT_NOIOMMU,
	NN_OPT_FORCE_PORT,
};

/* The shared planning options a command takes (nn_cmd_desc.groups), as groups. */
enum {
	NN_GROUP_PLAN = 1 << 0,		/* --nics --cpus --reserve --policy --channels --no-xps --hugepages */
	NN_GROUP_PLAN_IRQB = 1 << 1,	/* --irqbalance stop|ban|ignore, the plan's */
	NN_GROUP_RSS = 1 << 2,		/* --rss: only plan, apply and check carry an RSS table */
	NN_GROUP_NET = 1 << 3,		/* --rps, the NAPI settings, --profile, --busy-poll: plan, apply, check, script, enable */
	NN_GROUP_BOOT = 1 << 4,		/* --boot-args, --isolate, --dpdk-ports, --noiommu, --force-port:
					 * plan, apply, check (the kernel's arguments, the ports' driver) */
	NN_GROUP_PORTS = 1 << 5,	/* --dpdk-ports, --noiommu, --force-port alone: enable (kept by the watcher) */
};

/* The plan_given bit of a plan option id (nn_optstate.plan_given). */
#define NN_PLAN_GIVEN(id) (1u << ((id) - NN_OPT_NICS))

/* The rows of the shared options (core/opts.h): a command takes them with
 * NN_GROUP_PLAN, NN_GROUP_PLAN_IRQB (the plan's --irqbalance; `enable` has its
 * own) and NN_GROUP_RSS. */
extern const struct nn_opt nn_plan_optv[];
/* --irqbalance's words (plan, apply, enable: one vocabulary, docs/cli.md)
 * and its old ones ("leave" was enable's ignore), for the rows' .values and
 * .old_values. */
extern const char *const nn_irqbalance_words[];
extern const char *const nn_irqbalance_old_words[];
/* The group as the option parser takes it (nn_opt_share; main.c). */
extern const struct nn_opt_group nn_plan_optgroup;

/* Handles one option id into @dest (a struct nn_plan_opts); 0 done, 1 not a
 * planning option, -1 bad value (message printed, naming the option). */
int nn_plan_opt(struct nn_ctx *ctx, int opt, const char *arg, void *dest);
/* Checks what needs the host: NIC names, online CPUs, page sizes. */
int nn_plan_opts_check(struct nn_ctx *ctx, const struct nn_host *host, struct nn_plan_opts *o);
/* Message for an nn_plan_make() error; returns NN_EXIT_ERROR. */
int nn_plan_errmsg(struct nn_ctx *ctx, int err);

#endif
