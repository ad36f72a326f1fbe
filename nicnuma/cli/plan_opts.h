/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan_opts.h - the plan a command works on (act/plan_get.h) and what the command says of it */
#ifndef NICNUMA_CLI_PLAN_OPTS_H
#define NICNUMA_CLI_PLAN_OPTS_H

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_opts.h"
#include "nicnuma/act/plan_get.h"
#include "opts.h"

/* The plan's warnings as the command's warnings (exit 1) and its notes as
 * notes (exit 0), "plan: " before each: one status for one fact. */
void nn_cli_plan_findings(struct nn_ctx *ctx, const struct nn_plan *plan);

#endif
