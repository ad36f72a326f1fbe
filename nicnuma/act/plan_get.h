/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan_get.h - the plan a command works on: --plan FILE checked against the host, or made from the options
 *
 * Here, below the commands and the service, so that the apply request
 * (act/apply_request.h) makes its plan itself, under its own lock, instead
 * of calling back up into the command that asked for it.
 */
#ifndef NICNUMA_ACT_PLAN_GET_H
#define NICNUMA_ACT_PLAN_GET_H

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_opts.h"

/* Reads a plan file ("-" stdin) strictly; messages name the file and key. */
int nn_plan_load(struct nn_ctx *ctx, const char *path, struct nn_plan *plan);
/* The host shape check of a plan read from a file, and its ports checked
 * again on the host as it is now (nn_ports_check: no --force-port,
 * no-IOMMU mode where the plan chose it); the plan is freed when it fails. */
int nn_plan_check_host(struct nn_ctx *ctx, struct nn_host *host, const char *planfile,
		       struct nn_plan *plan);
/* The plan a command works on: read from @planfile ("-" stdin) and checked
 * against @host's shape, or made from @o. A plan with boot arguments gets
 * the host's boot facts read (host->boot: the planner's input, and the
 * three columns). Messages printed; 0 or -errno. */
int nn_plan_get(struct nn_ctx *ctx, struct nn_host *host, const char *planfile,
		struct nn_plan_opts *o, struct nn_plan *plan);
/* The plan of the newest apply not rolled back, checked against this host's
 * shape: 1 with @plan and @path (malloc'd) set; 0 when there is none or it
 * cannot be used (a warning names why: check then makes a fresh plan);
 * -ENOMEM. */
int nn_plan_get_applied(struct nn_ctx *ctx, struct nn_host *host, struct nn_plan *plan, char **path);

#endif
