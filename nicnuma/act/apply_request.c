// SPDX-License-Identifier: GPL-2.0-or-later
/* apply_request.c - one `apply` request: lock, discover, plan, gates, verify's before, apply, verify's after */
#include <errno.h>

#include "nicnuma/act/apply_request.h"
#include "nicnuma/act/plan_get.h"

/* The plan file read already, checked against this host; or a new plan. */
static int request_plan(struct nn_ctx *ctx, const struct nn_apply_request *req, struct nn_pipeline *pl)
{
	int err = req->plan_file ? nn_plan_check_host(ctx, &pl->host, req->plan_file, &pl->plan)
				 : nn_plan_get(ctx, &pl->host, NULL, req->popts, &pl->plan);

	/* the gate looks at the NICs named (as the planner resolved them) */
	pl->nics = req->popts->nics;
	pl->nnics = req->popts->nnics;
	return err;
}

int nn_apply_request_prepare(struct nn_ctx *ctx, const struct nn_apply_request *req, struct nn_pipeline *pl)
{
	int err = nn_pipeline_discover(ctx, pl);

	if (!err)
		err = request_plan(ctx, req, pl);
	if (!err)
		err = nn_pipeline_gate(ctx, pl);
	if (err)
		return err;
	pl->ao.irqbalance = req->irqb_given || !req->plan_file ? req->popts->irqbalance
							       : pl->plan.irqbalance.action;
	/* the window before, with the lock held and nothing written yet */
	if (req->verify && !pl->ao.dry_run && nn_verify_before(ctx, &pl->host, &pl->plan, req->verify))
		return -EIO;
	return 0;
}

int nn_apply_request_apply(struct nn_ctx *ctx, const struct nn_apply_request *req, struct nn_pipeline *pl,
			   struct nn_apply_report *rep)
{
	int err = nn_pipeline_apply(ctx, pl, rep);

	/* judged (and rolled back) before the command prints the report, so
	 * that the report says what the host holds now */
	if (req->verify && err >= 0 && !rep->rolled_back) {
		int v = nn_verify_finish(ctx, pl, rep, req->verify);

		err = v < 0 ? v : v > 0 ? 1 : err;
	}
	return err;
}
