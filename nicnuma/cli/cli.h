/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli.h - the nicnuma command table and helpers shared by the commands */
#ifndef NICNUMA_CLI_H
#define NICNUMA_CLI_H

#include <getopt.h>

#include "nicnuma/ctx.h"

/* Each command parses its own options (getopt_long, exact names; global
 * --root/--json/-v were already taken out of argv by main) and returns an exit
 * status: NN_EXIT_OK, NN_EXIT_WARN or NN_EXIT_ERROR. argv[0] is the command. */
typedef int (*nn_cmd_fn)(struct nn_ctx *ctx, int argc, char **argv);

struct nn_cmd {
	const char *name;
	nn_cmd_fn fn;
	const char *summary;
};

/* Discovery commands (cmd_topo.c, cmd_nics.c). */
int nn_cmd_topo(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_nics(struct nn_ctx *ctx, int argc, char **argv);

/* Plan, apply, check, rollback (cmd_apply.c, cmd_check.c, cmd_rollback.c). */
int nn_cmd_apply(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_check(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_rollback(struct nn_ctx *ctx, int argc, char **argv);

/* Long-only option ids shared by the commands that make a plan (plansrc.c). */
enum {
	NN_OPT_NICS = 0x200,
	NN_OPT_CPUS,
	NN_OPT_RESERVE,
	NN_OPT_POLICY,
	NN_OPT_CHANNELS,
	NN_OPT_PLAN,
	NN_OPT_STATE_DIR,
	NN_OPT_IRQBALANCE,
	NN_OPT_DRY_RUN,
	NN_OPT_KEEP_GOING,
};

#define NN_PLAN_LONGOPTS \
	{ "nics", required_argument, NULL, NN_OPT_NICS }, \
	{ "cpus", required_argument, NULL, NN_OPT_CPUS }, \
	{ "reserve", required_argument, NULL, NN_OPT_RESERVE }, \
	{ "policy", required_argument, NULL, NN_OPT_POLICY }, \
	{ "channels", no_argument, NULL, NN_OPT_CHANNELS }

#define NN_PLAN_OPTS_HELP \
"Plan options (as for 'nicnuma plan'; only without --plan):\n" \
"      --nics A,B        plan these interfaces (default: every non-virtual NIC)\n" \
"      --cpus CPULIST    only these CPUs take queue IRQs\n" \
"      --reserve CPULIST housekeeping CPUs kept free of queue IRQs (default: the\n" \
"                        first core of each node and its SMT siblings)\n" \
"      --policy local|spread|remote\n" \
"                        the NIC's own node (default), all nodes, or the farthest\n" \
"      --channels        also set combined channels to the planned cores\n"

struct nn_plan_opts;
struct nn_host;
struct nn_plan;
struct json_object;
/* 1 when @opt was a plan option (and is now in @o), 0 when it is not one,
 * negative errno (message printed) on a bad value. */
int nn_cli_plan_opt(struct nn_ctx *ctx, int opt, const char *arg, struct nn_plan_opts *o);
/* Discovers the host, then loads @file (checked against the host's shape; "-"
 * is stdin) or makes a fresh plan with @opts. @shape (may be NULL) gets the
 * plan's host shape as JSON, a new reference. Messages are printed. */
int nn_cli_get_plan(struct nn_ctx *ctx, const char *file, const struct nn_plan_opts *opts,
		    struct nn_host *host, struct nn_plan *plan, struct json_object **shape);

/* Status for a finished report: error beats warnings beats clean. */
int nn_cli_status(const struct nn_ctx *ctx, int err);

#endif
