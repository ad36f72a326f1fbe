// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_opts.c - the plan a command works on: read from --plan FILE, or made from the planning options */
#include <stdio.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/act/plan_file.h"

int nn_cli_read_plan(struct nn_ctx *ctx, const char *path, struct nn_plan *plan)
{
	char why[640];
	int ret = nn_plan_read_file(path, plan, why, sizeof(why));

	if (ret)
		nn_err(ctx, "--plan: %s", why);
	return ret;
}

int nn_cli_check_plan_shape(struct nn_ctx *ctx, const struct nn_host *host, const char *planfile,
			    struct nn_plan *plan)
{
	char why[256];
	int ret = nn_plan_check_shape(plan, host, why, sizeof(why));

	if (ret) {
		nn_err(ctx, "--plan: %s: made for another host shape: %s", planfile, why);
		nn_plan_free(plan);
	}
	return ret;
}

int nn_cli_get_plan(struct nn_ctx *ctx, const struct nn_host *host, const char *planfile,
		    struct nn_plan_opts *o, struct nn_plan *plan)
{
	int ret;

	if (planfile) {
		ret = nn_cli_read_plan(ctx, planfile, plan);
		return ret ? ret : nn_cli_check_plan_shape(ctx, host, planfile, plan);
	}
	ret = nn_plan_opts_check(ctx, host, o);
	if (ret)
		return ret;
	ret = nn_plan_make(host, o, plan);
	if (ret)
		nn_plan_errmsg(ctx, ret);
	return ret;
}
