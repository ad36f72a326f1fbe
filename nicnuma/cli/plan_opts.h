/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan_opts.h - the plan a command works on: --plan FILE or the planning options */
#ifndef NICNUMA_CLI_PLAN_OPTS_H
#define NICNUMA_CLI_PLAN_OPTS_H

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_opts.h"
#include "opts.h"

/* Reads a plan file ("-" stdin) strictly; messages name the file and key. */
int nn_cli_read_plan(struct nn_ctx *ctx, const char *path, struct nn_plan *plan);
/* The host shape check of a plan read from a file, and its ports checked
 * again on the host as it is now (nn_ports_check: no --force-port,
 * no-IOMMU mode where the plan chose it); the plan is freed when it fails. */
int nn_cli_check_plan_shape(struct nn_ctx *ctx, struct nn_host *host, const char *planfile,
			    struct nn_plan *plan);
/* The plan a command works on: read from @planfile ("-" stdin) and checked
 * against @host's shape, or made from @o. A plan with boot arguments gets
 * the host's boot facts read (host->boot: the planner's input, and the
 * three columns). Messages printed; 0 or -errno. */
int nn_cli_get_plan(struct nn_ctx *ctx, struct nn_host *host, const char *planfile,
		    struct nn_plan_opts *o, struct nn_plan *plan);
/* The plan of the newest apply not rolled back, checked against this host's
 * shape: 1 with @plan and @path (malloc'd) set; 0 when there is none or it
 * cannot be used (a warning names why: check then makes a fresh plan);
 * -ENOMEM. */
int nn_cli_get_applied_plan(struct nn_ctx *ctx, struct nn_host *host, struct nn_plan *plan, char **path);
/* The plan's warnings as the command's warnings (exit 1) and its notes as
 * notes (exit 0), "plan: " before each: one status for one fact. */
void nn_cli_plan_findings(struct nn_ctx *ctx, const struct nn_plan *plan);

#endif
