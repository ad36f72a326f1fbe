/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan_opts.h - planning options shared by `nicnuma plan` and `nicnuma script` */
#ifndef NICNUMA_CLI_PLAN_OPTS_H
#define NICNUMA_CLI_PLAN_OPTS_H


#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/plan/plan.h"
#include "opts.h"

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
};

/* The rows of the shared options (opts.h): a command takes them with
 * NN_GROUP_PLAN, NN_GROUP_PLAN_IRQB (the plan's --irqbalance; `enable` has its
 * own) and NN_GROUP_RSS (--rss: only plan, apply and check carry an RSS table). */
extern const struct nn_opt nn_plan_optv[];

/* Handles one option id (opts.c calls it for a table with plan groups); 0
 * done, 1 not a planning option, -1 bad value (message printed, naming the
 * option). */
int nn_plan_opt(struct nn_ctx *ctx, int opt, const char *arg, struct nn_plan_opts *o);
/* Checks what needs the host: NIC names, online CPUs, page sizes. */
int nn_plan_opts_check(struct nn_ctx *ctx, const struct nn_host *host, struct nn_plan_opts *o);
/* Message for an nn_plan_make() error; returns NN_EXIT_ERROR. */
int nn_plan_errmsg(struct nn_ctx *ctx, int err);

/* Reads a plan file ("-" stdin) strictly; messages name the file and key. */
int nn_cli_read_plan(struct nn_ctx *ctx, const char *path, struct nn_plan *plan);
/* The plan a command works on: read from @planfile ("-" stdin) and checked
 * against @host's shape, or made from @o. Messages printed; 0 or -errno. */
/* The host shape check of a plan read from a file (the plan is freed when
 * it fails). */
int nn_cli_check_plan_shape(struct nn_ctx *ctx, const struct nn_host *host, const char *planfile,
			    struct nn_plan *plan);
int nn_cli_get_plan(struct nn_ctx *ctx, const struct nn_host *host, const char *planfile,
		    struct nn_plan_opts *o, struct nn_plan *plan);


#endif
